import { randomFillSync } from 'node:crypto';
import type { Attributes, AttributeValue, HrTime } from '@opentelemetry/api';

/**
 * A growable protobuf writer for OTLP trace messages (opentelemetry-proto
 * trace/v1 and common/v1), written in one pass: a nested message reserves one
 * byte for its length and moves its body when the length needs more. The
 * maintained serializer measures every message before writing it and encodes
 * each string's UTF-8 in JavaScript twice; at rate 1 that was most of what a
 * span cost (the observability bench's profile), the statement text above all.
 */
export class ProtoWriter {
  buf: Buffer;
  pos = 0;

  constructor(size = 64 * 1024) {
    this.buf = Buffer.allocUnsafe(size);
  }

  /** Room for `n` more bytes. */
  room(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.pos + n) size *= 2;
    const bigger = Buffer.allocUnsafe(size);
    this.buf.copy(bigger, 0, 0, this.pos);
    this.buf = bigger;
  }

  /** A non-negative integer below 2^53. */
  varint(value: number): void {
    this.room(10);
    if (value < 0x80) {
      this.buf[this.pos++] = value;
      return;
    }
    while (value > 0x7f) {
      this.buf[this.pos++] = (value % 0x80) | 0x80;
      value = Math.floor(value / 0x80);
    }
    this.buf[this.pos++] = value;
  }

  tag(field: number, wire: number): void {
    this.varint(field * 8 + wire);
  }

  /** int64 as protobuf writes it: a negative number is ten bytes of two's complement. */
  int64(value: number): void {
    if (value >= 0 && value <= Number.MAX_SAFE_INTEGER) return this.varint(value);
    let rest = BigInt.asUintN(64, BigInt(value));
    this.room(10);
    while (rest > 0x7fn) {
      this.buf[this.pos++] = Number(rest & 0x7fn) | 0x80;
      rest >>= 7n;
    }
    this.buf[this.pos++] = Number(rest);
  }

  fixed32(value: number): void {
    this.room(4);
    this.buf.writeUInt32LE(value >>> 0, this.pos);
    this.pos += 4;
  }

  /** A fixed64 given as its low and high 32 bits (a bigint per span costs more than the rest of its time fields). */
  fixed64(low: number, high: number): void {
    this.room(8);
    const { buf } = this;
    let at = this.pos;
    buf[at++] = low & 0xff;
    buf[at++] = (low >>> 8) & 0xff;
    buf[at++] = (low >>> 16) & 0xff;
    buf[at++] = low >>> 24;
    buf[at++] = high & 0xff;
    buf[at++] = (high >>> 8) & 0xff;
    buf[at++] = (high >>> 16) & 0xff;
    buf[at++] = high >>> 24;
    this.pos = at;
  }

  /** Nanoseconds since the epoch of an HrTime ([seconds, nanoseconds]), without leaving exact integer arithmetic. */
  hrTime(time: HrTime): void {
    const [seconds, nanos] = time;
    const upper = Math.floor(seconds / 0x10000) * 1e9; // seconds' bits 16+, times 1e9: below 2^53
    const lower = (seconds % 0x10000) * 1e9 + nanos; // below 2^53
    const low = (upper % 0x10000) * 0x10000 + (lower % 0x100000000);
    this.fixed64(low % 0x100000000, Math.floor(upper / 0x10000) + Math.floor(lower / 0x100000000) + Math.floor(low / 0x100000000));
  }

  /** Nanoseconds since the epoch of a `performance.now()` reading, to the microsecond (as the SDK's clock). */
  now(reading: number): void {
    const micros = Math.round((performance.timeOrigin + reading) * 1000); // below 2^53
    const low = (micros % 0x100000000) * 1000;
    this.fixed64(low % 0x100000000, Math.floor(micros / 0x100000000) * 1000 + Math.floor(low / 0x100000000));
  }

  double(value: number): void {
    this.room(8);
    this.buf.writeDoubleLE(value, this.pos);
    this.pos += 8;
  }

  string(field: number, value: string): void {
    if (value.length < CACHED_LENGTH && this.ascii(field, value)) return;
    const bytes = utf8Of(value);
    this.tag(field, 2);
    this.varint(bytes.length);
    this.raw(bytes);
  }

  /** A short string written char by char when it is ASCII (keys, names, ids): cheaper than a call into the encoder. */
  private ascii(field: number, value: string): boolean {
    const length = value.length;
    const start = this.pos;
    this.tag(field, 2);
    this.room(1 + length);
    const { buf } = this;
    const mark = this.pos;
    let at = mark + 1;
    for (let i = 0; i < length; i += 1) {
      const code = value.charCodeAt(i);
      if (code >= 0x80) {
        this.pos = start;
        return false;
      }
      buf[at++] = code;
    }
    buf[mark] = length;
    this.pos = at;
    return true;
  }

  bytes(field: number, value: Uint8Array): void {
    this.tag(field, 2);
    this.varint(value.length);
    this.room(value.length);
    this.buf.set(value, this.pos);
    this.pos += value.length;
  }

  /** An id given in hex (the API's form, 16 or 32 digits) as its bytes. */
  hexId(field: number, hex: string): void {
    const length = hex.length >>> 1;
    this.tag(field, 2);
    this.varint(length);
    this.room(length);
    const { buf } = this;
    for (let i = 0; i < length; i += 1) buf[this.pos++] = (HEX[hex.charCodeAt(2 * i)]! << 4) | HEX[hex.charCodeAt(2 * i + 1)]!;
  }

  /** A fresh random, non-zero 8-byte span id. */
  randomSpanId(field: number): void {
    this.tag(field, 2);
    this.varint(8);
    this.room(8);
    const { buf } = this;
    const at = this.pos;
    let zero = true;
    while (zero) {
      takeRandom(buf, at, 8);
      for (let i = at; i < at + 8; i += 1) if (buf[i] !== 0) zero = false;
    }
    this.pos += 8;
  }

  /** Appends bytes already encoded. */
  raw(bytes: Uint8Array): void {
    this.room(bytes.length);
    this.buf.set(bytes, this.pos);
    this.pos += bytes.length;
  }

  /** Opens a length-delimited field; `end` with what this returns closes it. */
  begin(field: number): number {
    this.tag(field, 2);
    this.room(1);
    return this.pos++;
  }

  end(start: number): void {
    const length = this.pos - start - 1;
    if (length < 0x80) {
      this.buf[start] = length;
      return;
    }
    let extra = 1;
    while (length >= 2 ** (7 * (extra + 1))) extra += 1;
    this.room(extra);
    this.buf.copyWithin(start + 1 + extra, start + 1, this.pos);
    this.pos += extra;
    let value = length;
    let at = start;
    while (value > 0x7f) {
      this.buf[at++] = (value % 0x80) | 0x80;
      value = Math.floor(value / 0x80);
    }
    this.buf[at] = value;
  }

  /** The bytes written from `from` on, copied out; the writer starts again there. */
  take(from = 0): Buffer {
    // Buffer.from(a Buffer's subarray) copies byte by byte, as from any array-like.
    const out = Buffer.allocUnsafe(this.pos - from);
    this.buf.copy(out, 0, from, this.pos);
    this.pos = from;
    return out;
  }
}

/** Each hex digit's value by char code. */
const HEX = new Uint8Array(128);
for (let i = 0; i < 16; i += 1) {
  HEX[i.toString(16).charCodeAt(0)] = i;
  HEX[i.toString(16).toUpperCase().charCodeAt(0)] = i;
}

// ---- strings: the same statement texts, route names and keys come back with every span ----

/** Longer strings (statement texts) are kept as UTF-8, shorter ASCII ones written in place. */
const CACHED_LENGTH = 48;
const CACHE_SIZE = 2048;
let utf8Cache = new Map<string, Buffer>();

function utf8Of(value: string): Buffer {
  let bytes = utf8Cache.get(value);
  if (!bytes) {
    // Unique strings (ids in attributes) must not grow it without end: start afresh when full.
    if (utf8Cache.size >= CACHE_SIZE) utf8Cache = new Map();
    bytes = Buffer.from(value, 'utf8');
    utf8Cache.set(value, bytes);
  }
  return bytes;
}

// ---- random ids, drawn from the system's generator in blocks ----

const pool = Buffer.allocUnsafe(16 * 1024);
let poolAt = pool.length;

function takeRandom(target: Buffer, at: number, length: number): void {
  if (poolAt + length > pool.length) {
    randomFillSync(pool);
    poolAt = 0;
  }
  for (let i = 0; i < length; i += 1) target[at + i] = pool[poolAt++]!;
}

/** A random trace (16 bytes) or span (8 bytes) id as lowercase hex, never all zeros (an invalid id). */
export function randomHexId(bytes: 8 | 16): string {
  for (;;) {
    if (poolAt + bytes > pool.length) {
      randomFillSync(pool);
      poolAt = 0;
    }
    const at = poolAt;
    poolAt += bytes;
    // Read straight from the pool: a copy first cost an allocation per id.
    for (let i = at; i < at + bytes; i += 1) if (pool[i] !== 0) return pool.toString('hex', at, at + bytes);
  }
}

// ---- common/v1 ----

export function writeAnyValue(w: ProtoWriter, value: AttributeValue | Uint8Array | Record<string, unknown>): void {
  if (typeof value === 'string') w.string(1, value);
  else if (typeof value === 'boolean') {
    w.tag(2, 0);
    w.varint(value ? 1 : 0);
  } else if (typeof value === 'number') {
    // As the maintained serializer: an integer in int64's range is int_value, anything else double_value.
    if (Number.isInteger(value) && value >= -(2 ** 63) && value < 2 ** 63) {
      w.tag(3, 0);
      w.int64(value);
    } else {
      w.tag(4, 1);
      w.double(value);
    }
  } else if (value instanceof Uint8Array) w.bytes(7, value);
  else if (Array.isArray(value)) {
    const list = w.begin(5);
    for (const item of value) {
      const entry = w.begin(1);
      if (item !== null && item !== undefined) writeAnyValue(w, item);
      w.end(entry);
    }
    w.end(list);
  } else if (typeof value === 'object' && value !== null) {
    const list = w.begin(6);
    for (const key of Object.keys(value)) {
      const item = (value as Record<string, unknown>)[key];
      const entry = w.begin(1);
      w.string(1, key);
      const inner = w.begin(2);
      if (item !== null && item !== undefined) writeAnyValue(w, item as AttributeValue);
      w.end(inner);
      w.end(entry);
    }
    w.end(list);
  }
}

export function writeAttributes(w: ProtoWriter, field: number, attributes: Attributes | undefined): void {
  if (!attributes) return;
  for (const key in attributes) {
    if (!Object.prototype.hasOwnProperty.call(attributes, key)) continue;
    const value = attributes[key];
    const entry = w.begin(field);
    w.string(1, key);
    const inner = w.begin(2);
    if (value !== undefined && value !== null) writeAnyValue(w, value);
    w.end(inner);
    w.end(entry);
  }
}
