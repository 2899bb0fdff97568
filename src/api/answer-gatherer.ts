import type { Dispatcher } from 'undici';

/**
 * The part of an undici dispatch handler that gathers the final answer: its status, its
 * headers (as undici parses them) and its body, chunk by chunk. Shared by the platform
 * client's transport and the routing engine's client; each settles its own promise.
 */
/**
 * The largest answer gathered (Doc1 §8: the body limits are not shown). Beyond it an answer
 * is abandoned, never decoded: past ~512 MB its text no longer fits a string, and the request
 * would neither end nor fail.
 */
const MAX_ANSWER_BYTES = 256 * 1024 * 1024;

/** An answer larger than the limit: not retried (the next one would be as large). */
export class AnswerTooLarge extends Error {
  constructor(readonly limit: number) {
    super(`the answer is larger than ${Math.round(limit / (1024 * 1024))} MB, more than switchboard reads`);
  }
}

export abstract class AnswerGatherer implements Dispatcher.DispatchHandler {
  protected status: number | undefined;
  protected headers: Record<string, string | string[] | undefined> = {};
  private readonly chunks: Buffer[] = [];
  private received = 0;

  constructor(private readonly maxBytes = MAX_ANSWER_BYTES) {}

  /** Ends the attempt with `error` (once: a later call does nothing). */
  abstract fail(error: unknown): void;

  onResponseStart(
    _controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: Record<string, string | string[] | undefined>,
  ): void {
    this.status = statusCode;
    this.headers = headers;
    this.chunks.length = 0; // a 1xx answer came first: only the final answer's body counts
    this.received = 0;
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.received > this.maxBytes) return;
    this.received += chunk.length;
    if (this.received > this.maxBytes) {
      this.chunks.length = 0;
      const error = new AnswerTooLarge(this.maxBytes);
      controller.abort(error);
      this.fail(error);
      return;
    }
    this.chunks.push(chunk);
  }

  /** The body gathered, as text; undefined (and the attempt failed) when it cannot be decoded. */
  protected text(): string | undefined {
    try {
      return this.body().toString('utf8');
    } catch (error) {
      this.fail(error);
      return undefined;
    }
  }

  /** The body's size as it came over the wire (counted as it came: no second pass over the text). */
  protected get bytesReceived(): number {
    return this.received;
  }

  /** The body gathered, as one buffer. */
  protected body(): Buffer {
    return this.chunks.length === 1 ? (this.chunks[0] as Buffer) : Buffer.concat(this.chunks);
  }
}
