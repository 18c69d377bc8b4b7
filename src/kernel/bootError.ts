/** Thrown by the kernel when contributions do not fit together; lists every problem at once. */
export class BootError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`Plugin boot failed:\n- ${problems.join('\n- ')}`);
    this.name = 'BootError';
  }
}
