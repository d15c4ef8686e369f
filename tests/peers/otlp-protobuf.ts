/**
 * Reads an OTLP/HTTP protobuf trace export (`ExportTraceServiceRequest`,
 * opentelemetry-proto's trace/v1/trace.proto) into the shape of its OTLP/JSON
 * form, so the test collector has one path for both encodings. Only what
 * the receiver keeps is read (resource and span attributes, ids, name, kind,
 * status, links, scope name); every other field is skipped by its wire type,
 * as a protobuf reader must.
 */

interface AnyValue {
  stringValue?: string;
  intValue?: string;
  doubleValue?: number;
  boolValue?: boolean;
}
interface KeyValue {
  key: string;
  value: AnyValue;
}
export interface DecodedSpan {
  traceId: string;
  spanId: string;
  traceState?: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  /** Nanoseconds since the epoch, as decimal strings (they exceed 2^53). */
  startTimeUnixNano?: string;
  endTimeUnixNano?: string;
  attributes: KeyValue[];
  events?: { timeUnixNano: string; name: string; attributes: KeyValue[] }[];
  status?: { code?: number; message?: string };
  links: { traceId: string; spanId: string }[];
  flags?: number;
}
export interface DecodedExport {
  resourceSpans: { resource: { attributes: KeyValue[] }; scopeSpans: { scope: { name: string }; spans: DecodedSpan[] }[] }[];
}

const VARINT = 0;
const FIXED64 = 1;
const BYTES = 2;
const FIXED32 = 5;

/** One message's fields in order: the field number, its wire type and where its value is. */
class Reader {
  private at: number;

  constructor(
    private readonly buf: Buffer,
    start = 0,
    private readonly end = buf.length,
  ) {
    this.at = start;
  }

  *fields(): Generator<{ field: number; wire: number; reader: Reader; varint: bigint; start: number; stop: number }> {
    while (this.at < this.end) {
      const tag = Number(this.varint());
      const field = tag >>> 3;
      const wire = tag & 7;
      const start = this.at;
      let varint = 0n;
      if (wire === VARINT) varint = this.varint();
      else if (wire === FIXED64) this.at += 8;
      else if (wire === FIXED32) this.at += 4;
      else if (wire === BYTES) {
        const length = Number(this.varint());
        const from = this.at;
        this.at += length;
        yield { field, wire, reader: new Reader(this.buf, from, from + length), varint, start: from, stop: from + length };
        continue;
      } else throw new Error(`protobuf: wire type ${wire} is not supported`);
      if (this.at > this.end) throw new Error('protobuf: truncated message');
      yield { field, wire, reader: this, varint, start, stop: this.at };
    }
  }

  private varint(): bigint {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      if (this.at >= this.end) throw new Error('protobuf: truncated varint');
      const byte = this.buf[this.at++]!;
      result |= BigInt(byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return result;
      shift += 7n;
    }
  }

  text(start: number, stop: number): string {
    return this.buf.toString('utf8', start, stop);
  }

  hex(start: number, stop: number): string {
    return this.buf.toString('hex', start, stop);
  }

  double(start: number): number {
    return this.buf.readDoubleLE(start);
  }

  fixed64(start: number): string {
    return this.buf.readBigUInt64LE(start).toString();
  }

  fixed32(start: number): number {
    return this.buf.readUInt32LE(start);
  }
}

function anyValue(reader: Reader): AnyValue {
  for (const f of reader.fields()) {
    if (f.field === 1 && f.wire === BYTES) return { stringValue: reader.text(f.start, f.stop) };
    if (f.field === 2 && f.wire === VARINT) return { boolValue: f.varint !== 0n };
    if (f.field === 3 && f.wire === VARINT) return { intValue: BigInt.asIntN(64, f.varint).toString() };
    if (f.field === 4 && f.wire === FIXED64) return { doubleValue: reader.double(f.start) };
  }
  return {};
}

function keyValue(reader: Reader): KeyValue {
  let key = '';
  let value: AnyValue = {};
  for (const f of reader.fields()) {
    if (f.field === 1) key = reader.text(f.start, f.stop);
    else if (f.field === 2) value = anyValue(f.reader);
  }
  return { key, value };
}

function span(reader: Reader): DecodedSpan {
  const out: DecodedSpan = { traceId: '', spanId: '', name: '', kind: 0, attributes: [], links: [] };
  for (const f of reader.fields()) {
    switch (f.field) {
      case 1:
        out.traceId = reader.hex(f.start, f.stop);
        break;
      case 2:
        out.spanId = reader.hex(f.start, f.stop);
        break;
      case 3:
        out.traceState = reader.text(f.start, f.stop);
        break;
      case 4:
        out.parentSpanId = reader.hex(f.start, f.stop);
        break;
      case 5:
        out.name = reader.text(f.start, f.stop);
        break;
      case 6:
        out.kind = Number(f.varint);
        break;
      case 7:
        out.startTimeUnixNano = reader.fixed64(f.start);
        break;
      case 8:
        out.endTimeUnixNano = reader.fixed64(f.start);
        break;
      case 9:
        out.attributes.push(keyValue(f.reader));
        break;
      case 11: {
        const event = { timeUnixNano: '', name: '', attributes: [] as KeyValue[] };
        for (const g of f.reader.fields()) {
          if (g.field === 1) event.timeUnixNano = f.reader.fixed64(g.start);
          if (g.field === 2) event.name = f.reader.text(g.start, g.stop);
          if (g.field === 3) event.attributes.push(keyValue(g.reader));
        }
        (out.events ??= []).push(event);
        break;
      }
      case 16:
        out.flags = reader.fixed32(f.start);
        break;
      case 13: {
        const link = { traceId: '', spanId: '' };
        for (const g of f.reader.fields()) {
          if (g.field === 1) link.traceId = f.reader.hex(g.start, g.stop);
          if (g.field === 2) link.spanId = f.reader.hex(g.start, g.stop);
        }
        out.links.push(link);
        break;
      }
      case 15:
        out.status = { code: 0 };
        for (const g of f.reader.fields()) {
          if (g.field === 2) out.status.message = f.reader.text(g.start, g.stop);
          if (g.field === 3) out.status.code = Number(g.varint);
        }
        break;
    }
  }
  return out;
}

export function decodeTraceExport(body: Buffer): DecodedExport {
  const result: DecodedExport = { resourceSpans: [] };
  for (const rs of new Reader(body).fields()) {
    if (rs.field !== 1 || rs.wire !== BYTES) continue;
    const entry: DecodedExport['resourceSpans'][number] = { resource: { attributes: [] }, scopeSpans: [] };
    for (const f of rs.reader.fields()) {
      if (f.field === 1) {
        for (const g of f.reader.fields()) if (g.field === 1) entry.resource.attributes.push(keyValue(g.reader));
      } else if (f.field === 2) {
        const scopeSpans: DecodedExport['resourceSpans'][number]['scopeSpans'][number] = { scope: { name: '' }, spans: [] };
        for (const g of f.reader.fields()) {
          if (g.field === 1) {
            for (const h of g.reader.fields()) if (h.field === 1) scopeSpans.scope.name = g.reader.text(h.start, h.stop);
          } else if (g.field === 2) scopeSpans.spans.push(span(g.reader));
        }
        entry.scopeSpans.push(scopeSpans);
      }
    }
    result.resourceSpans.push(entry);
  }
  return result;
}
