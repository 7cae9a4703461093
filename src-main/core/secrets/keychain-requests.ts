/** What Anybrain asks of the keychain's helper process (keychain-helper.ts), and what each request answers. */
export type KeychainRequest =
  /** Answers `{ [account]: secret | null }`. */
  | { readonly op: 'read'; readonly service: string; readonly accounts: readonly string[] }
  /** Answers null. */
  | { readonly op: 'set'; readonly service: string; readonly account: string; readonly secret: string }
  /** Answers whether there was a credential to delete. */
  | { readonly op: 'remove'; readonly service: string; readonly account: string };
