/** What the REST face reads of a request: a fetch Request, or the listener's view of a Node one. */
export type RestRequest = Pick<Request, 'method' | 'url' | 'headers' | 'body' | 'text' | 'json'>;
