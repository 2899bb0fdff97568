/**
 * Preloaded into the CLI (`NODE_OPTIONS=--import …`) by tests whose subject is not the
 * backoff: the retry policy's jitter (uniform between 0 and 250 ms·2ⁿ, docs/connecting.md
 * "Retries") is drawn at its minimum, so a request that spends its 5 retries against a silent
 * engine takes its 6 timeouts and no backoff. Outside the simulator, nothing else in src/ draws
 * from Math.random.
 */
Math.random = () => 0;
