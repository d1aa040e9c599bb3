/** What came back over the socket for one raw request. */
export interface RawAnswer {
    /** The status line (`HTTP/1.1 404 Not Found`), or null when nothing came back. */
    statusLine: string | null;
    status: number | null;
    /** Header names in lower case; repeated headers joined with ', '. */
    headers: Record<string, string>;
    /** The body, de-chunked. */
    body: Buffer;
    /** A socket error or 'timeout', when the exchange did not end cleanly. */
    error: string | null;
}
/**
 * Sends bytes as they are over a fresh socket (so malformed requests reach the server's parser)
 * and reads until the server closes the connection. Send `Connection: close` to end early.
 */
export declare function rawExchange(port: number, request: Buffer | string, timeoutMs?: number): Promise<RawAnswer>;
export declare function parseAnswer(raw: Buffer, error?: string | null): RawAnswer;
/** A request head and body as bytes; `body` goes out with a Content-Length, or chunked. */
export declare function rawRequest(method: string, target: string, headers: Array<[string, string]>, body?: Buffer | string, options?: {
    chunked?: boolean;
}): Buffer;
