/** A fact a check needed could not be had; the check fails on it, naming the request. */
export class PrerequisiteFailed extends Error {
  readonly request?: string;

  constructor(message: string, request?: string) {
    super(message);
    this.request = request;
  }
}
