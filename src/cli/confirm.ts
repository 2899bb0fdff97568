/**
 * The confirmation question of `apply`: a line typed on a terminal. Only "yes" confirms; an
 * input that ends before an answer (Ctrl-D) is no yes either: the apply is cancelled, not an
 * internal error.
 */
import { createInterface } from 'node:readline/promises';

/**
 * Asks `question` on `input`; true only when the answer is "yes". Rejects when `signal` is
 * aborted (the caller says why); Ctrl-C on a terminal, which readline takes itself, is passed
 * on as the SIGINT it is.
 */
export async function askYes(
  question: string,
  input: NodeJS.ReadableStream,
  output: NodeJS.WritableStream,
  signal: AbortSignal,
): Promise<boolean> {
  const rl = createInterface({ input, output });
  rl.on('SIGINT', () => process.kill(process.pid, 'SIGINT'));
  try {
    return await new Promise<boolean>((resolve, reject) => {
      let ended = false;
      // The input ended (Ctrl-D on a terminal, the end of a stream): the question has no answer.
      // On a terminal readline then rejects the question too; elsewhere it would wait forever.
      rl.once('close', () => {
        ended = true;
        output.write('\n'); // the answer's line was never ended
        resolve(false);
      });
      rl.question(question, { signal }).then(
        (answer) => resolve(answer.trim() === 'yes'),
        (error: unknown) => (signal.aborted || !ended ? reject(error) : resolve(false)),
      );
    });
  } finally {
    rl.removeAllListeners('close');
    rl.close();
  }
}
