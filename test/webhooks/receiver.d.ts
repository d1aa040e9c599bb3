import { type IncomingHttpHeaders, type ServerResponse } from 'node:http';
export interface Received {
    headers: IncomingHttpHeaders;
    /** The exact body bytes as they arrived. */
    raw: Buffer;
    body: any;
}
export type Reply = (received: Received, res: ServerResponse, index: number) => void | Promise<void>;
export interface Receiver {
    url: string;
    port: number;
    received: Received[];
    /** Resolves once `n` requests have arrived (fails after `timeoutMs`). */
    waitFor(n: number, timeoutMs?: number): Promise<Received[]>;
    /** Changes how the next requests are answered. */
    reply(fn: Reply): void;
    close(): Promise<void>;
}
export declare const ok: Reply;
/** A real HTTP receiver on 127.0.0.1 that records every request. */
export declare function startReceiver(reply?: Reply): Promise<Receiver>;
/** A port on 127.0.0.1 where nothing listens. */
export declare function closedPort(): Promise<number>;
