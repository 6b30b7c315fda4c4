/** Where the REST face is served. */
export const restBasePath = '/v3';
