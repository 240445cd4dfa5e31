// Netlify's production redirect engine compiled to WebAssembly; it ships no types.
declare module 'netlify-redirector' {
  export interface MatchRequest {
    scheme: string;
    host: string;
    path: string;
    query: string;
    headers: Record<string, string | string[]>;
    cookieValues: Record<string, string>;
    getHeader: (name: string) => string;
    getCookie: (name: string) => string;
  }
  export interface Match {
    from: string;
    to: string;
    status: number;
    force: boolean;
    force404?: boolean;
    conditions: Record<string, string>;
  }
  export interface RedirectMatcher {
    match(request: MatchRequest): Match | null;
  }
  const redirector: {
    parsePlain(rules: string, options: Record<string, unknown>): Promise<RedirectMatcher>;
    parseJSON(rules: string, options: Record<string, unknown>): Promise<RedirectMatcher>;
  };
  export default redirector;
}
