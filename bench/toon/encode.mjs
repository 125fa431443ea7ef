// Encodes JSON values with the official TOON encoder for the gcx token
// scorecard (bench/scorecard). Input on stdin: one compact JSON value per
// line. Output on stdout: a JSON array with, per input line, the TOON text
// with the comma delimiter, with the tab delimiter, and whether decoding both
// gives back the value JSON.parse made.
import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { encode, decode } from '@toon-format/toon';

const out = [];
for (const line of readFileSync(0, 'utf8').split('\n')) {
  if (line === '') continue;
  const value = JSON.parse(line);
  const comma = encode(value, { delimiter: ',' });
  const tab = encode(value, { delimiter: '\t' });
  const same = (text) => {
    try {
      return isDeepStrictEqual(decode(text), value);
    } catch {
      return false;
    }
  };
  out.push({ comma, tab, roundTrip: same(comma) && same(tab) });
}
process.stdout.write(JSON.stringify(out));
