/** The local file header signature every zip starts with, "PK\x03\x04" (PKWARE APPNOTE.TXT 4.3.7). */
const ZIP_SIGNATURE = [0x50, 0x4b, 0x03, 0x04] as const;

/** Whether a file's bytes are a zip: an import sends these as bytes (base64), any other file as text. */
export function startsLikeZip(bytes: Uint8Array): boolean {
  return ZIP_SIGNATURE.every((byte, index) => bytes[index] === byte);
}
