/**
 * A line of an app's output that looks like a warning or an error, in the words and signs servers and frameworks
 * print (`SyntaxError`, Next.js's `⨯ unhandledRejection`, `⚠`, `ERR_…`): the harness picks such lines for a failed
 * test's server log excerpt, and the prover shows the excerpt beside the failure when it holds one.
 */
export const notableLine =
  /\b(?:\w*error|warn(?:ing)?|blocked|fail(?:ed|s|ure)?|fatal|exception|unhandled\w*|refused|denied|forbidden|cannot|unable|invalid)\b|\bERR[_!]|⚠|⨯|✗|✖|❌/i;
