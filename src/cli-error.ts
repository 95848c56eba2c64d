/** An error meant for the user of the CLI: printed as one line, with the given exit code (2: bad input). */
export class CliError extends Error {
  constructor(message: string, readonly exitCode = 2) {
    super(message);
    this.name = 'CliError';
  }
}
