/**
 * What the fake providers read from inline images and files: strict base64 (as Go's and Google's decoders read it) and
 * the image type the bytes hold, so a request that labels a JPEG as PNG, or sends a data URL where bare base64 belongs,
 * fails here the way it fails at the provider.
 */

const BASE64_ALPHABET = /[A-Za-z0-9+/]/;

/** The bytes of strict base64, or the index of the first byte a strict decoder refuses. */
export function decodeStrictBase64(data: string): { readonly bytes: Buffer } | { readonly badIndex: number } {
  for (let index = 0; index < data.length; index += 1) {
    const character = data[index]!;
    if (BASE64_ALPHABET.test(character)) continue;
    // Padding only at the end, at most two.
    if (character === '=' && index >= data.length - 2 && /^=+$/.test(data.slice(index))) continue;
    return { badIndex: index };
  }
  if (data.length % 4 !== 0) return { badIndex: data.length - (data.length % 4) };
  return { bytes: Buffer.from(data, 'base64') };
}

/** The image type of the bytes by their signature, or null. */
export function imageTypeOf(bytes: Buffer): string | null {
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (bytes.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff]))) return 'image/jpeg';
  const head = bytes.toString('latin1', 0, 12);
  if (head.startsWith('GIF87a') || head.startsWith('GIF89a')) return 'image/gif';
  if (head.startsWith('RIFF') && head.slice(8, 12) === 'WEBP') return 'image/webp';
  return null;
}

export function isPdf(bytes: Buffer): boolean {
  return bytes.toString('latin1', 0, 5) === '%PDF-';
}

/** A data URL's parts, or null for a value that is not one. */
export function parseDataUrl(value: string): { readonly mediaType: string; readonly data: string } | null {
  const match = /^data:([^;,]+);base64,(.*)$/s.exec(value);
  return match === null ? null : { mediaType: match[1]!, data: match[2]! };
}

/**
 * What OpenAI says about an `image_url` that is not a base64 data URL of an image it reads: the part after "Expected a
 * base64-encoded data URL with an image MIME type (e.g. 'data:image/png;base64,aW1nIGJ5dGVzIGhlcmU='), but got ".
 */
export function openAiImageUrlProblem(value: unknown): string | null {
  if (typeof value !== 'string' || !value.startsWith('data:')) return "a value without the 'data:' prefix.";
  const parsed = parseDataUrl(value);
  if (parsed === null) return 'an invalid data URL.';
  if (!['image/png', 'image/jpeg', 'image/gif', 'image/webp'].includes(parsed.mediaType)) return `unsupported MIME type '${parsed.mediaType}'.`;
  if (parsed.data === '') return 'empty base64-encoded bytes.';
  const decoded = decodeStrictBase64(parsed.data);
  if ('badIndex' in decoded || imageTypeOf(decoded.bytes) === null) return 'invalid base64-encoded bytes.';
  return null;
}

export const OPENAI_IMAGE_URL_EXPECTED = "Expected a base64-encoded data URL with an image MIME type (e.g. 'data:image/png;base64,aW1nIGJ5dGVzIGhlcmU='), but got";
