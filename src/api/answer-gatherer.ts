import type { Dispatcher } from 'undici';

/**
 * The part of an undici dispatch handler that gathers the final answer: its status, its
 * headers (as undici parses them) and its body, chunk by chunk. Shared by the platform
 * client's transport and the routing engine's client; each settles its own promise.
 */
export abstract class AnswerGatherer implements Dispatcher.DispatchHandler {
  protected status: number | undefined;
  protected headers: Record<string, string | string[] | undefined> = {};
  private readonly chunks: Buffer[] = [];

  onResponseStart(
    _controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: Record<string, string | string[] | undefined>,
  ): void {
    this.status = statusCode;
    this.headers = headers;
    this.chunks.length = 0; // a 1xx answer came first: only the final answer's body counts
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.chunks.push(chunk);
  }

  /** The body gathered, as one buffer. */
  protected body(): Buffer {
    return this.chunks.length === 1 ? (this.chunks[0] as Buffer) : Buffer.concat(this.chunks);
  }
}
