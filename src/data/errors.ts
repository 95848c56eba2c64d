import { CliError } from '../cli-error.ts';

/**
 * Bad input data (an export file, an army list, an army file). A CliError, so the CLI prints it as
 * one line; the message always names the file (and line or field) and what was expected.
 */
export class DataError extends CliError {
  constructor(message: string, readonly file?: string, readonly line?: number) {
    super(message);
    this.name = 'DataError';
  }
}
