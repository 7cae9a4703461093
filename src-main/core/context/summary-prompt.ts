/** The opening of every compaction request's system prompt, so a request can be told apart as one (the fake brains read it). */
export const SUMMARY_REQUEST_MARKER = '[Anybrain compaction request]';
