/** The landing page's HTML and the API reference page, generated at render time. */
import { THRESHOLDS } from '../domain/species/risk.js';

const SWATCHES: Array<[string, string]> = [
  ['None', '#f1eef6'],
  ['Low', '#fed976'],
  ['Moderate', '#fd8d3c'],
  ['High', '#e31a1c'],
  ['Very High', '#800026'],
];

/** index.html: a static shell that the script fills from the public API. */
export function landingPage(scriptPath: string, stylePath: string): string {
  const row = (label: string, [t1, t2, t3]: readonly number[]) =>
    `<tr><th scope="row">${label}</th><td>1–${t1! - 1}</td><td>${t1}–${t2! - 1}</td><td>${t2}–${t3! - 1}</td><td>${t3}+</td></tr>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Pollen today and tomorrow: tree, grass and weed pollen in US cities</title>
<meta name="description" content="Pollen today and tomorrow in US cities, for tree, grass and weed pollen and your own plants, with weather and air quality. A free read-only API.">
<link rel="stylesheet" href="${stylePath}">
<link rel="icon" href="data:,">
</head>
<body>
<header>
  <div class="title"><h1>Pollen today and tomorrow</h1> <button type="button" id="units" aria-pressed="false">Metric units</button></div>
  <p class="lede">Tree, grass and weed pollen in 1,000 US cities, and the plants you react to, from None to Very High: the levels set by the US pollen-counting network (<a href="#glossary" class="to-glossary">NAB</a>).</p>
  <p id="freshness" class="fine" role="status"></p>
  <form id="city-form" role="search" aria-label="Find a city by name or ZIP code"><label for="city-search">Your city or ZIP code</label> <span class="field"><input id="city-search" name="city" list="city-names" autocomplete="off" placeholder="Tulsa, OK or 74103"> <button type="submit">Open</button></span><datalist id="city-names"></datalist></form>
  <div class="locate">
    <button type="button" id="use-location">Use my location</button>
    <form id="zip-form" role="search" aria-label="Find the nearest city by ZIP code"><label for="zip">ZIP code</label> <input id="zip" name="zip" inputmode="numeric" pattern="[0-9]{5}" maxlength="5" size="6" autocomplete="postal-code" required> <button type="submit">Find</button></form>
  </div>
  <p id="locate-status" class="fine" role="status"></p>
</header>
<main>
  <div class="layout">
    <section id="panel" aria-labelledby="panel-title" hidden></section>
    <figure class="map">
      <div class="map-controls">
        <div><label for="date">Map day</label> <select id="date" aria-describedby="map-status"></select> <input id="other-date" type="date" aria-label="Another day to map" hidden></div>
        <div><label for="colour-by">Colour by</label> <select id="colour-by"><option value="">the worst of all</option><option value="tree">tree pollen</option><option value="grass">grass pollen</option><option value="weed">weed pollen</option><option value="ragweed">ragweed</option></select></div>
      </div>
      <p id="simulated" class="notice simulated" role="note" hidden><strong>Simulated data.</strong> This site runs on the sample provider, which invents pollen, weather and forecast values for demonstration: not for health decisions.</p>
      <svg id="map" viewBox="0 0 975 610" role="group" aria-labelledby="map-caption"><g id="markers"></g></svg>
      <figcaption id="map-caption"><span id="map-status" role="status">Loading the map…</span> Each marker shows a city's level as a number, 0 (none) to 4 (very high); a white pill counts the cities grouped under it.</figcaption>
    </figure>
    <div class="side">
      <section class="legend" aria-labelledby="legend-title">
        <h2 id="legend-title">What the levels mean</h2>
        <ul class="series-legend">${SWATCHES.map(([label, colour], i) => `<li><span class="badge" style="background:${colour};color:${i >= 3 ? '#fff' : '#1a1a1a'}">${i} ${label}</span></li>`).join('')}</ul>
        <div class="scroll-x" tabindex="0" role="region" aria-label="Pollen grains per cubic metre of air at each level"><table><caption>Grains of pollen per m³ of air at each level</caption>
          <thead><tr><th scope="col">Pollen</th><th scope="col">Low</th><th scope="col">Moderate</th><th scope="col">High</th><th scope="col">Very High</th></tr></thead>
          <tbody>${row('Tree', THRESHOLDS.tree)}${row('Grass', THRESHOLDS.grass)}${row('Weed', THRESHOLDS.weed)}${row('Ragweed', THRESHOLDS.ragweed)}</tbody>
        </table></div>
        <p class="fine">0 is None. Tree, grass or weed pollen takes the level of its worst single plant.</p>
      </section>
      <section id="glossary" aria-labelledby="glossary-title"><h2 id="glossary-title">What the words mean</h2>
        <dl class="glossary">
          <dt>Levels (NAB)</dt><dd>None, Low, Moderate, High and Very High: the grades of a pollen count set by the National Allergy Bureau, the US pollen-counting network of the American Academy of Allergy, Asthma &amp; Immunology, for tree, grass and weed pollen (the table above).</dd>
          <dt>Plant</dt><dd>One plant (or a group of close ones, such as cypress, juniper and cedar) that the provider counts inside tree, grass or weed pollen. Levels are set for tree, grass and weed pollen, not single plants, so a plant's level here is its count on its category's scale.</dd>
          <dt>grains/m³</dt><dd>Pollen grains in a cubic metre of air (about 35 cubic feet), averaged over an hour or a day.</dd>
          <dt>Forecast, outlook, usual for the season</dt><dd>The forecast is the provider's, for the next day or two. The outlook goes on to 7 days from earlier years' days around each date, moved by this year's season. The usual for the season is the earlier years' level at this time of year: shown where the outlook has not done better than it.</dd>
          <dt>Main season</dt><dd>From the day 2.5% of a year's pollen has been in the air to the day 97.5% has: known for sure only once the year is over.</dd>
          <dt>Exposure season (EAACI)</dt><dd>The days pollen is high enough, often enough, to matter to people with allergies, by the definition of the European Academy of Allergy and Clinical Immunology: it can be told while the season is under way.</dd>
          <dt>SPIn, APIn</dt><dd>The season's and the year's amount of pollen: the daily means added up, in grains·day/m³, to compare one season's amount with another's.</dd>
          <dt>Yesterday's level, the usual for the season</dt><dd>The two simple guesses a forecast must beat: that tomorrow is like today, and that it is like this time of year in earlier years.</dd>
          <dt>Skill score, interval</dt><dd>How much better than chance a forecast picked the right level: 1 always right, 0 no better than chance. The interval is where the score would lie 95 times in 100 with other days of the same kind.</dd>
          <dt>AQI</dt><dd>The EPA's Air Quality Index, 0 to 500 (Good up to 50), of the day's fine and coarse particles (PM2.5, PM10).</dd>
        </dl>
      </section>
      <nav aria-labelledby="list-title"><h2 id="list-title">Cities</h2><ul id="city-list"></ul></nav>
    </div>
  </div>
</main>
<footer>
  <h2>Use the data</h2>
  <p>Everything here comes from the public, read-only API: <a href="/openapi.json">OpenAPI document</a>, <a href="/api-reference.html">API reference</a>, <a href="/llms.txt">llms.txt</a> for agents.</p>
  <p>MCP for AI agents: streamable HTTP at <code>/mcp</code> (tools <code>find_city</code>, <code>list_cities</code>, <code>get_pollen</code>, <code>get_forecast</code> and more), or stdio with <code>npx pollen-api mcp --stdio</code>. Add <code>{"mcpServers": {"pollen": {"type": "http", "url": "&lt;this site&gt;/mcp"}}}</code> to your client.</p>
  <details id="bulk"><summary>The whole history as files: every month as Parquet and CSV, and the seasons of every year</summary>
    <p class="fine">For analysts: one file per month and kind, typed columns, readable by DuckDB, pandas, Polars and Arrow, also over HTTP. Each link's rows and size are in the <a href="/data/bulk/index.json">manifest</a>.</p>
    <table class="bulk"><caption class="sr-only">Bulk files by month</caption><thead><tr><th scope="col">Month</th><th scope="col">Pollen, hourly</th><th scope="col">Pollen, daily</th><th scope="col">Weather, daily</th></tr></thead><tbody id="bulk-files"></tbody></table>
  </details>
  <p>Sample deployments show simulated data; real deployments use Ambee, Atmospore or WeatherAPI.com pollen and Open-Meteo or OpenWeatherMap weather.</p>
</footer>
<script type="module" src="${scriptPath}"></script>
</body>
</html>
`;
}
