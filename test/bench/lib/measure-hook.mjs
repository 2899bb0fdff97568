/**
 * Preloaded into the measured CLI process (`node --import measure-hook.mjs …`): at exit it
 * writes the process's own CPU time and peak RSS to the file named by SB_BENCH_MEASURE.
 * It lives here, not in src/, so production code carries no benchmark hook.
 */
import { writeFileSync } from 'node:fs';

const file = process.env['SB_BENCH_MEASURE'];
if (file) {
  process.on('exit', () => {
    const cpu = process.cpuUsage();
    const usage = process.resourceUsage();
    writeFileSync(
      file,
      JSON.stringify({ cpuUserS: cpu.user / 1e6, cpuSystemS: cpu.system / 1e6, maxRssMB: usage.maxRSS / 1024 }),
    );
  });
}
