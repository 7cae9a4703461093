/**
 * Ids an import links by (a message's parent, a summary's span, the current leaf) must each name one thing: an id
 * used twice would silently point a link at the wrong message or drop one, so the file is refused naming both places.
 */

/** The first place each id was seen, by the path an import shows (`conversations[0].chat_messages[2].uuid`). */
export class IdPlaces {
  private readonly firstPlace = new Map<string, string>();

  /** Records `id` at `path`; returns the problem to name after `path` when the id was seen before, else null. */
  claim(id: string, path: string): string | null {
    const earlier = this.firstPlace.get(id);
    if (earlier !== undefined) return `the id ${JSON.stringify(id)} appears twice (also at ${earlier})`;
    this.firstPlace.set(id, path);
    return null;
  }
}
