import * as Schema from "effect/Schema";

/** The source of a description built from flags; its errors name no turn, since the flags do not number them. */
export const commandLine = "the command line";

/** A description `replay-agent new` cannot write a transcript from: where in it, what is wrong, and what to write instead. */
export class DescriptionError extends Schema.TaggedError<DescriptionError>()("DescriptionError", {
  source: Schema.String,
  where: Schema.String,
  problem: Schema.String,
  fix: Schema.String,
}) {
  override get message(): string {
    const where = this.where === "" || this.source === commandLine ? "" : `${this.where}: `;
    return `${this.source}: ${where}${this.problem}. ${this.fix}`;
  }
}

/** `replay-agent new` cannot read its description file or write its transcript. */
export class NewFileError extends Schema.TaggedError<NewFileError>()("NewFileError", {
  file: Schema.String,
  operation: Schema.Literals(["read", "write"]),
  detail: Schema.String,
}) {
  override get message(): string {
    return this.operation === "read"
      ? `replay-agent new cannot read the description ${this.file}: ${this.detail}. Check the --from path; a relative path is resolved from ${process.cwd()}`
      : `replay-agent new cannot write ${this.file}: ${this.detail}. Pass an --out path in an existing, writable directory that does not hold a file of that name yet, or leave out --out to print the transcript`;
  }
}
