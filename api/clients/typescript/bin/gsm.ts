#!/usr/bin/env node
/** The `gsm` command (src/cli.ts): runs it with this process's arguments and exits with its status. */
import { ApiError } from '../src/client.ts';
import { main, USAGE, UsageError } from '../src/cli.ts';

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof UsageError) process.stderr.write(`gsm: ${error.message}\n${USAGE}\n`);
    else if (error instanceof ApiError)
      process.stderr.write(
        `gsm: ${error.statusCode} ${error.message}${error.details ? `: ${error.details.map((detail) => `${detail.field} ${detail.message}`).join('; ')}` : ''}\n`,
      );
    else process.stderr.write(`gsm: ${(error as Error).message}\n`);
    process.exit(error instanceof UsageError ? 2 : 1);
  },
);
