#!/usr/bin/env node
/**
 * Draws the app icon from one description into build/icons/icon.svg and build/icons/512x512.png (the PNG
 * electron-builder turns into the .icns, .ico and Linux icon sets). The PNG is rasterised here, with zlib only:
 * rounded squares, a triangle and circles, 4x4 supersampled.
 *
 * Usage: node scripts/generate-icons.js
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';

const SIZE = 512;
const SUPERSAMPLING = 4;
const outputDir = join(resolve(dirname(fileURLToPath(import.meta.url)), '..'), 'build', 'icons');

/** The icon: a speech bubble on an indigo tile, holding three dots of different colours (several brains, one talk). */
const TILE = { x: 32, y: 32, width: 448, height: 448, radius: 104, top: '#6366f1', bottom: '#3730a3' };
const BUBBLE = { x: 104, y: 128, width: 304, height: 224, radius: 64, fill: '#ffffff' };
const TAIL = { points: [[152, 336], [232, 336], [136, 416]], fill: '#ffffff' };
const DOTS = [
  { cx: 184, cy: 240, r: 28, fill: '#f97316' },
  { cx: 256, cy: 240, r: 28, fill: '#10b981' },
  { cx: 328, cy: 240, r: 28, fill: '#6366f1' },
];

function svg() {
  const [a, b, c] = TAIL.points;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${SIZE}" height="${SIZE}" viewBox="0 0 ${SIZE} ${SIZE}">`,
    '  <defs>',
    '    <linearGradient id="tile" x1="0" y1="0" x2="0" y2="1">',
    `      <stop offset="0" stop-color="${TILE.top}"/>`,
    `      <stop offset="1" stop-color="${TILE.bottom}"/>`,
    '    </linearGradient>',
    '  </defs>',
    `  <rect x="${TILE.x}" y="${TILE.y}" width="${TILE.width}" height="${TILE.height}" rx="${TILE.radius}" fill="url(#tile)"/>`,
    `  <rect x="${BUBBLE.x}" y="${BUBBLE.y}" width="${BUBBLE.width}" height="${BUBBLE.height}" rx="${BUBBLE.radius}" fill="${BUBBLE.fill}"/>`,
    `  <path d="M${a[0]} ${a[1]} L${b[0]} ${b[1]} L${c[0]} ${c[1]} Z" fill="${TAIL.fill}"/>`,
    ...DOTS.map((dot) => `  <circle cx="${dot.cx}" cy="${dot.cy}" r="${dot.r}" fill="${dot.fill}"/>`),
    '</svg>',
    '',
  ].join('\n');
}

function rgb(hex) {
  return [1, 3, 5].map((offset) => parseInt(hex.slice(offset, offset + 2), 16));
}

function insideRoundedRect(rect, x, y) {
  const halfWidth = rect.width / 2;
  const halfHeight = rect.height / 2;
  const dx = Math.max(Math.abs(x - (rect.x + halfWidth)) - (halfWidth - rect.radius), 0);
  const dy = Math.max(Math.abs(y - (rect.y + halfHeight)) - (halfHeight - rect.radius), 0);
  if (Math.abs(x - (rect.x + halfWidth)) > halfWidth || Math.abs(y - (rect.y + halfHeight)) > halfHeight) return false;
  return dx * dx + dy * dy <= rect.radius * rect.radius;
}

function insideTriangle([a, b, c], x, y) {
  const side = (p, q) => (q[0] - p[0]) * (y - p[1]) - (q[1] - p[1]) * (x - p[0]);
  const first = side(a, b);
  const second = side(b, c);
  const third = side(c, a);
  return (first >= 0 && second >= 0 && third >= 0) || (first <= 0 && second <= 0 && third <= 0);
}

/** The colour at one point, painted back to front; null where the icon is transparent. */
function colourAt(x, y) {
  if (!insideRoundedRect(TILE, x, y)) return null;
  for (const dot of DOTS) {
    if ((x - dot.cx) ** 2 + (y - dot.cy) ** 2 <= dot.r * dot.r) return rgb(dot.fill);
  }
  if (insideRoundedRect(BUBBLE, x, y) || insideTriangle(TAIL.points, x, y)) return rgb(BUBBLE.fill);
  const t = Math.min(Math.max((y - TILE.y) / TILE.height, 0), 1);
  const top = rgb(TILE.top);
  const bottom = rgb(TILE.bottom);
  return top.map((channel, index) => channel + (bottom[index] - channel) * t);
}

function rasterise() {
  // One filter byte (0, none) before each row of RGBA pixels, as PNG scanlines require.
  const rows = Buffer.alloc(SIZE * (1 + SIZE * 4));
  const samples = SUPERSAMPLING * SUPERSAMPLING;
  for (let row = 0; row < SIZE; row += 1) {
    const rowStart = row * (1 + SIZE * 4);
    for (let column = 0; column < SIZE; column += 1) {
      const sum = [0, 0, 0];
      let covered = 0;
      for (let sampleY = 0; sampleY < SUPERSAMPLING; sampleY += 1) {
        for (let sampleX = 0; sampleX < SUPERSAMPLING; sampleX += 1) {
          const colour = colourAt(column + (sampleX + 0.5) / SUPERSAMPLING, row + (sampleY + 0.5) / SUPERSAMPLING);
          if (!colour) continue;
          covered += 1;
          colour.forEach((channel, index) => (sum[index] += channel));
        }
      }
      const offset = rowStart + 1 + column * 4;
      if (covered > 0) sum.forEach((channel, index) => (rows[offset + index] = Math.round(channel / covered)));
      rows[offset + 3] = Math.round((covered / samples) * 255);
    }
  }
  return rows;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, byte) => {
  let value = byte;
  for (let bit = 0; bit < 8; bit += 1) value = value & 1 ? 0xedb88320 ^ (value >>> 1) : value >>> 1;
  return value >>> 0;
});

function crc32(bytes) {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typeAndData = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typeAndData));
  return Buffer.concat([length, typeAndData, crc]);
}

function png() {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(SIZE, 0);
  header.writeUInt32BE(SIZE, 4);
  header[8] = 8; // bits per channel
  header[9] = 6; // colour type: RGBA
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rasterise(), { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

mkdirSync(outputDir, { recursive: true });
writeFileSync(join(outputDir, 'icon.svg'), svg());
writeFileSync(join(outputDir, `${SIZE}x${SIZE}.png`), png());
console.log(`Wrote build/icons/icon.svg and build/icons/${SIZE}x${SIZE}.png`);
