/**
 * The tokens the packed forms are written in: a value is a varint whose low 3 bits say how to read
 * it (0..3 a decimal scale: the value times 10^k is a whole number, so 38.5 is 385 at scale 1, one
 * or two bytes; 4 null; 5 a float64 that follows, for anything else: -0, 0.1 + 0.2, huge
 * numbers); columns of values, written once when they are all the same; and bitmaps.
 */
const TAG_NULL = 4;
const TAG_FLOAT = 5;
const TAG_BITS = 8;
const MAX_SCALED = Math.floor(Number.MAX_SAFE_INTEGER / TAG_BITS);
const POWERS = [1, 10, 100, 1000];

/** Where a raw float64 is laid out before its bytes are written: one for every Writer, which writes it at once. */
const FLOAT = new DataView(new ArrayBuffer(8));

/** Bytes written one at a time: varints, tokens and bitmaps. */
export class Writer {
  private buf = new Uint8Array(64);
  private length = 0;

  private push(b: number): void {
    if (this.length === this.buf.length) {
      const larger = new Uint8Array(2 * this.buf.length);
      larger.set(this.buf);
      this.buf = larger;
    }
    this.buf[this.length++] = b;
  }

  varint(n: number): void {
    while (n >= 128) {
      this.push((n % 128) | 0x80);
      n = Math.floor(n / 128);
    }
    this.push(n);
  }

  /** One value: the smallest decimal scale that holds it exactly, else null or a raw float64. */
  token(v: number | null): void {
    if (v === null) {
      this.varint(TAG_NULL);
      return;
    }
    if (v >= 0 && !Object.is(v, -0)) {
      for (let k = 0; k < POWERS.length; k++) {
        const n = Math.round(v * POWERS[k]!);
        if (n <= MAX_SCALED && n / POWERS[k]! === v) {
          this.varint(n * TAG_BITS + k);
          return;
        }
      }
    }
    this.varint(TAG_FLOAT);
    FLOAT.setFloat64(0, v, true);
    for (let i = 0; i < 8; i++) this.push(FLOAT.getUint8(i));
  }

  /** A column of values: one token when they are all the same (a weed with no species, all 0), else each one. */
  column(values: ReadonlyArray<number | null>): void {
    if (values.length === 0) return;
    const same = values.length > 1 && values.every((v) => Object.is(v, values[0]));
    this.varint(same ? 1 : 0);
    if (same) this.token(values[0]!);
    else for (const v of values) this.token(v);
  }

  /** Flags, eight to a byte, the first in the lowest bit. */
  bits(flags: readonly boolean[]): void {
    for (let i = 0; i < flags.length; i += 8) {
      let b = 0;
      for (let j = 0; j < 8 && i + j < flags.length; j++) if (flags[i + j]) b |= 1 << j;
      this.push(b);
    }
  }

  /** `count` flags as `bits` writes them, given as a bitmap (flag i is bit i): a day's hours, at most MASK_FLAGS. */
  mask(flags: number, count: number): void {
    if (count > MASK_FLAGS) throw new RangeError(`${count} flags are more than a mask holds`);
    for (let i = 0; i < count; i += 8) this.push((flags >>> i) & 0xff);
  }

  done(): Uint8Array {
    return this.buf.slice(0, this.length);
  }
}

/** The most flags `mask` writes and reads: the hours of a day. */
const MASK_FLAGS = 24;

/** Reads what a Writer wrote, in the same order. */
export class Reader {
  private pos = 0;
  constructor(private readonly buf: Uint8Array) {}

  /** Whether bytes are left: what a format appends only when it has it. */
  more(): boolean {
    return this.pos < this.buf.length;
  }

  varint(): number {
    let n = 0;
    let scale = 1;
    for (;;) {
      const b = this.buf[this.pos++];
      if (b === undefined) throw new RangeError('packed data ends early');
      n += (b & 0x7f) * scale;
      if (b < 0x80) return n;
      scale *= 128;
    }
  }

  token(): number | null {
    const u = this.varint();
    const tag = u % TAG_BITS;
    if (tag === TAG_NULL) return null;
    if (tag === TAG_FLOAT) {
      const v = new DataView(this.buf.buffer, this.buf.byteOffset + this.pos, 8).getFloat64(0, true);
      this.pos += 8;
      return v;
    }
    if (tag > 3) throw new RangeError(`unknown token tag ${tag}`);
    return (u - tag) / TAG_BITS / POWERS[tag]!;
  }

  column(count: number): Array<number | null> {
    if (count === 0) return [];
    if (this.varint() === 1) return new Array<number | null>(count).fill(this.token());
    return Array.from({ length: count }, () => this.token());
  }

  bits(count: number): boolean[] {
    const out: boolean[] = [];
    for (let i = 0; i < count; i += 8) {
      const b = this.buf[this.pos++]!;
      for (let j = 0; j < 8 && i + j < count; j++) out.push((b & (1 << j)) !== 0);
    }
    return out;
  }

  /** `count` flags as `bits` reads them, as a bitmap (flag i is bit i): at most MASK_FLAGS. */
  mask(count: number): number {
    if (count > MASK_FLAGS) throw new RangeError(`${count} flags are more than a mask holds`);
    let m = 0;
    for (let i = 0; i < count; i += 8) {
      const b = this.buf[this.pos++];
      if (b === undefined) throw new RangeError('packed data ends early');
      m |= b << i;
    }
    return m & ((1 << count) - 1);
  }

  get done(): boolean {
    return this.pos === this.buf.length;
  }
}
