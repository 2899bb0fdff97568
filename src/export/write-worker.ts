/**
 * The file-writing thread of a large export (file-writer.ts): it takes batches of files,
 * writes each as the main thread would (atomic-write.ts), and answers each batch with what
 * became of every file, so that the system calls of 50,000 files do not hold up the
 * main thread, where every answer of the platform waits its turn.
 */
import { parentPort } from 'node:worker_threads';
import { SwitchboardError } from '../core/errors.js';
import { writeFileAtomically } from './atomic-write.js';
import type { BatchOutcome, WriteBatch, WriteFailure } from './file-writer.js';

const port = parentPort;
if (!port) throw new Error('write-worker.js runs as a worker thread of an export');

let outcomes: BatchOutcome[] = [];
let answering = false;

port.on('message', (batch: WriteBatch) => {
  outcomes.push(write(batch));
  // Every batch already delivered is written before one answer goes back.
  if (!answering) {
    answering = true;
    setImmediate(() => {
      answering = false;
      const answer = outcomes;
      outcomes = [];
      port.postMessage(answer);
    });
  }
});

function write({ firstId, files, fresh, bytes, ends }: WriteBatch): BatchOutcome {
  const failures: BatchOutcome['failures'] = [];
  files.forEach((file, index) => {
    const data = bytes.subarray(index === 0 ? 0 : ends[index - 1], ends[index]);
    try {
      writeFileAtomically(file, data, { freshFolder: fresh[index] === true });
    } catch (error) {
      failures.push({ id: firstId + index, error: describeError(error) });
    }
  });
  return { firstId, count: files.length, failures };
}

function describeError(error: unknown): WriteFailure {
  if (error instanceof SwitchboardError)
    return { switchboard: { exitCode: error.exitCode }, code: error.code, message: error.message };
  const failure = error as NodeJS.ErrnoException;
  return {
    message: error instanceof Error ? error.message : String(error),
    ...(typeof failure?.code === 'string' ? { code: failure.code } : {}),
    ...(typeof failure?.syscall === 'string' ? { syscall: failure.syscall } : {}),
    ...(typeof failure?.path === 'string' ? { path: failure.path } : {}),
    ...(typeof failure?.errno === 'number' ? { errno: failure.errno } : {}),
  };
}
