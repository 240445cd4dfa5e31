/** The API's name and version: OpenAPI's title and `info.version`, the MCP server's version, the author of its feeds. */

/** A new endpoint or parameter is a minor version; CHANGELOG.md says what each brought. */
export const API_VERSION = '2.18.0';
/** The API's name: OpenAPI's title, and the author of its feeds. */
export const API_TITLE = 'Pollen, weather and air-quality API';
