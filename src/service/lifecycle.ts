// The app's lifecycle as get_status reports it: its phase, the work that is changing the catalog now
// (folder syncs, imports), and notes about what went wrong without stopping it.

export type LifecyclePhase = 'starting' | 'ready' | 'failed' | 'closed';

export interface Diagnostic {
  code: string;
  message: string;
  count?: number;
}

export class Lifecycle {
  private phaseNow: LifecyclePhase = 'ready';
  private readonly work = new Map<number, string>();
  private nextWork = 0;
  private readonly notes = new Map<string, Diagnostic>();

  get phase(): LifecyclePhase {
    return this.phaseNow;
  }

  /** Marks work that changes the catalog while it runs; call the returned function when it ends. */
  begin(what: string): () => void {
    const id = this.nextWork++;
    this.work.set(id, what);
    return () => {
      this.work.delete(id);
    };
  }

  /** What is changing the catalog now, oldest first. */
  running(): string[] {
    return [...this.work.values()];
  }

  /** Records (or with undefined clears) a diagnostic under a key. */
  note(key: string, diagnostic: Diagnostic | undefined): void {
    if (diagnostic) this.notes.set(key, diagnostic);
    else this.notes.delete(key);
  }

  diagnostics(): Diagnostic[] {
    return [...this.notes.values()];
  }

  setPhase(phase: LifecyclePhase): void {
    if (this.phaseNow !== 'closed') this.phaseNow = phase;
  }

  close(): void {
    this.phaseNow = 'closed';
    this.work.clear();
  }
}
