/**
 * The cities of a step shared by its threads: each takes the next city not yet taken, so a
 * thread with less else to do scores more of them, and the cities are scored about in order,
 * which is the order one of them writes them in (score-cities.ts). Through memory the threads
 * share: counters, read and changed atomically. The writing thread waits on one and then reads
 * its ports with receiveMessageOnPort, the synchronous use Node added that function for, "in
 * combination with Atomics" (nodejs/node#27294).
 */
const NEXT = 0;
const HANDED = 1;
const FINISHED = 2;

export class CityTurns {
  private readonly counters: Int32Array;

  /** `shared` from CityTurns.memory(), the same in every thread. */
  constructor(shared: SharedArrayBuffer) {
    this.counters = new Int32Array(shared);
  }

  static memory(): SharedArrayBuffer {
    return new SharedArrayBuffer(3 * Int32Array.BYTES_PER_ELEMENT);
  }

  /** The index of the next city to score: at or past the count of cities when none is left. */
  take(): number {
    return Atomics.add(this.counters, NEXT, 1);
  }

  /** Says that a city's scores (or a failure) was posted to the writing thread, waking it. */
  handed(): void {
    Atomics.add(this.counters, HANDED, 1);
    Atomics.notify(this.counters, HANDED);
  }

  /** How many were handed so far. */
  handedCount(): number {
    return Atomics.load(this.counters, HANDED);
  }

  /**
   * Waits until more than `seen` were handed, or `ms` passed. A wait is bounded so that a thread
   * whose helper died without a word is still there to be stopped.
   */
  waitHanded(seen: number, ms: number): void {
    Atomics.wait(this.counters, HANDED, seen, ms);
  }

  /** Says that a helper has closed what it read (the served store), waking the writing thread. */
  finished(): void {
    Atomics.add(this.counters, FINISHED, 1);
    Atomics.notify(this.counters, FINISHED);
  }

  /** Waits until `helpers` helpers have finished, in waits of at most `ms` (as waitHanded's). */
  waitFinished(helpers: number, ms: number): void {
    for (let seen = Atomics.load(this.counters, FINISHED); seen < helpers; seen = Atomics.load(this.counters, FINISHED))
      Atomics.wait(this.counters, FINISHED, seen, ms);
  }
}
