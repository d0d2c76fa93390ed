// Vocabularies (header words, labels, company suffixes) are long alternations; written as lists of alternatives they
// stay readable and within the line width.

/** Matches any of the alternatives, each a regex source. */
export function anyOf(alternatives: string[], flags = ''): RegExp {
  return new RegExp(alternatives.join('|'), flags);
}

/** Matches a whole text that is one of the alternatives, optionally followed by `suffix` (a regex source). */
export function wholeOf(alternatives: string[], flags = '', suffix = ''): RegExp {
  return new RegExp(`^(?:${alternatives.join('|')})${suffix}$`, flags);
}
