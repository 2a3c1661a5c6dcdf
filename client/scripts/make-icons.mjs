// Draws the app icons (a white speech bubble on the brand blue) as PNG files, so the repository needs
// no image tools and no binary blobs. Runs before every build; skips icons that already exist.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

const outDir = new URL('../public/icons/', import.meta.url);
mkdirSync(outDir, { recursive: true });

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (bytes) => {
  let c = 0xffffffff;
  for (const b of bytes) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
const chunk = (type, data) => {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
};

/** pixel(x, y) in unit coordinates returns [r, g, b, a]. */
function png(size, pixel) {
  const rows = [];
  for (let y = 0; y < size; y++) {
    const row = Buffer.alloc(1 + size * 4);
    for (let x = 0; x < size; x++) row.set(pixel((x + 0.5) / size, (y + 0.5) / size), 1 + x * 4);
    rows.push(row);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr.set([8, 6, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const blue = [29, 78, 216, 255];
const white = [255, 255, 255, 255];
const clear = [0, 0, 0, 0];

/** The bubble: an ellipse with a small tail, scaled by `s` around the centre (maskable icons need margin). */
function bubble(x, y, s) {
  const u = (x - 0.5) / s + 0.5;
  const v = (y - 0.5) / s + 0.5;
  const inEllipse = ((u - 0.5) / 0.3) ** 2 + ((v - 0.45) / 0.22) ** 2 <= 1;
  const inTail = v >= 0.6 && v <= 0.78 && u >= 0.3 && u <= 0.42 && u - 0.3 <= (0.78 - v) * 0.7;
  const inDot = [0.38, 0.5, 0.62].some((cx) => (u - cx) ** 2 + (v - 0.45) ** 2 <= 0.035 ** 2);
  return (inEllipse || inTail) && !inDot;
}

const rounded = (x, y, r) => {
  const dx = Math.max(r - x, 0, x - (1 - r));
  const dy = Math.max(r - y, 0, y - (1 - r));
  return dx * dx + dy * dy <= r * r;
};

const icons = {
  'icon-192.png': [192, (x, y) => (!rounded(x, y, 0.2) ? clear : bubble(x, y, 1) ? white : blue)],
  'icon-512.png': [512, (x, y) => (!rounded(x, y, 0.2) ? clear : bubble(x, y, 1) ? white : blue)],
  'icon-512-maskable.png': [512, (x, y) => (bubble(x, y, 0.75) ? white : blue)],
};
for (const [name, [size, pixel]] of Object.entries(icons)) {
  const file = new URL(name, outDir);
  if (!existsSync(file)) writeFileSync(file, png(size, pixel));
}
