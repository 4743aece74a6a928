/** Labels as a side took them; a label taken again becomes "label (2)", "label (3)", … */
export function distinctLabels(labels: ReadonlyArray<string>): string[] {
  const seen = new Map<string, number>();
  return labels.map((label) => {
    const count = (seen.get(label) ?? 0) + 1;
    seen.set(label, count);
    return count === 1 ? label : `${label} (${count})`;
  });
}

/**
 * Both sides' labels in scenario order: the side with more sets the order, and a label only the
 * other took goes right after the label it followed there.
 */
export function mergeLabels(base: ReadonlyArray<string>, head: ReadonlyArray<string>): string[] {
  const [first, second] = head.length >= base.length ? [head, base] : [base, head];
  const merged = [...first];
  let after = -1;
  for (const label of second) {
    const at = merged.indexOf(label);
    if (at !== -1) {
      after = at;
      continue;
    }
    merged.splice(after + 1, 0, label);
    after += 1;
  }
  return merged;
}

/** A file name for a label: lower case letters, digits and dashes. */
export function labelSlug(label: string): string {
  const slug = label
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  return slug === "" ? "screenshot" : slug;
}
