// `npm run bench -- upgrade`: ava runs only the rolling upgrade (test/upgrade/rollingUpgrade.roll.ts), which is not
// part of `npm test` (test/**/*.test.ts).
export default {
  files: ['test/upgrade/rollingUpgrade.roll.ts'],
  extensions: ['ts'],
  workerThreads: false,
  timeout: '15m',
  verbose: true,
  environmentVariables: { METRICS_LISTEN: '127.0.0.1:0' },
};
