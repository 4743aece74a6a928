import { readFile, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BedrockRuntimeClient, ConverseCommand, ConverseStreamCommand } from "@aws-sdk/client-bedrock-runtime";
import { describe, expect, it, onTestFinished } from "vitest";
import { startRecorder } from "../fixtures/cli-process.ts";
import { bedrockClient } from "../fixtures/clients.ts";
import { fixture } from "../fixtures/fixture.ts";
import { signatureCheckingUpstream, type AwsCredentials } from "../fixtures/signature-checking-upstream.ts";
import { loadTranscript, startReplayServer } from "../index.ts";

const scratch = async () => {
  const dir = await mkdtemp(join(tmpdir(), "replay-agent-record-bedrock-"));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  return dir;
};

/** The recorder's own AWS credentials, planted where a careless recorder would write them. */
const recorderAws = {
  accessKeyId: "AKIARECORDER0PLANTED",
  secretAccessKey: "Recorder0Secret1Planted2In3Env4abcdefghij",
  sessionToken: "IQoJb3JpZ2luX2VjEPlanted0Session1Token2In3Env4",
} satisfies AwsCredentials;

/** The app's own credentials: what it signs with for the recorder's host, never forwarded. */
const appAws = { accessKeyId: "AKIAAPPOWN0KEY000000", secretAccessKey: "app-own-secret-not-forwarded" } satisfies AwsCredentials;

const modelId = "anthropic.claude-3-5-haiku-20241022-v1:0";

/** A Bedrock client as an app builds one: the SDK's default HTTP/2 handler, a custom endpoint, its own credentials, retries off. */
const appClient = (endpoint: string, credentials: AwsCredentials = appAws) => {
  const client = new BedrockRuntimeClient({ region: "us-east-1", endpoint, credentials, maxAttempts: 1 });
  onTestFinished(() => client.destroy());
  return client;
};

interface Read {
  readonly text: string;
  readonly stopReason: string | undefined;
  readonly usage: { readonly input: number | undefined; readonly output: number | undefined };
}

interface SignedCase {
  readonly command: string;
  readonly fixture: string;
  /** The pause the fixture holds at, resumed as soon as it is reached. */
  readonly pause?: string;
  readonly frames: string;
  readonly ask: (client: BedrockRuntimeClient) => Promise<Read>;
  readonly read: Read;
}

describe("replay-agent record --provider bedrock", () => {
  it.each<SignedCase>([
    {
      command: "ConverseStream",
      fixture: "bedrock/converse-stream.ndjson",
      pause: "mid-stream",
      frames: "1 request and 9 frames",
      ask: async (client) => {
        const response = await client.send(
          new ConverseStreamCommand({ modelId, messages: [{ role: "user", content: [{ text: "Give me a short tour" }] }] }),
        );
        let text = "";
        let stopReason: string | undefined;
        let usage: Read["usage"] = { input: undefined, output: undefined };
        for await (const event of response.stream ?? []) {
          text += event.contentBlockDelta?.delta?.text ?? "";
          stopReason ??= event.messageStop?.stopReason;
          if (event.metadata?.usage) usage = { input: event.metadata.usage.inputTokens, output: event.metadata.usage.outputTokens };
        }
        return { text, stopReason, usage };
      },
      read: { text: "This project has two files.", stopReason: "end_turn", usage: { input: 12, output: 6 } },
    },
    {
      command: "Converse",
      fixture: "bedrock/converse.ndjson",
      frames: "1 request and 1 frame",
      ask: async (client) => {
        const response = await client.send(
          new ConverseCommand({
            modelId,
            messages: [{ role: "user", content: [{ text: "Name this thread" }] }],
            inferenceConfig: { maxTokens: 20 },
          }),
        );
        const text = (response.output?.message?.content ?? []).map((block) => block.text ?? "").join("");
        return {
          text,
          stopReason: response.stopReason,
          usage: { input: response.usage?.inputTokens, output: response.usage?.outputTokens },
        };
      },
      read: { text: "Math helpers tour", stopReason: "end_turn", usage: { input: 9, output: 4 } },
    },
  ])(
    "records $command from the SDK's HTTP/2 client, re-signed for the upstream with its own credentials, and the recording replays to it",
    async ({ fixture: path, pause, frames, ask, read }) => {
      const bedrock = await startReplayServer({ transcript: fixture(path) });
      onTestFinished(() => bedrock.close());
      if (pause !== undefined) void bedrock.paused(pause).then(() => bedrock.resume(pause));
      const upstream = await signatureCheckingUpstream({ credentials: recorderAws, region: "us-east-1", forwardTo: bedrock.url });
      const out = join(await scratch(), "bedrock.ndjson");
      const recorder = await startRecorder({
        provider: "bedrock",
        upstream: upstream.url,
        out,
        env: {
          AWS_ACCESS_KEY_ID: recorderAws.accessKeyId,
          AWS_SECRET_ACCESS_KEY: recorderAws.secretAccessKey,
          AWS_SESSION_TOKEN: recorderAws.sessionToken,
          AWS_REGION: "us-east-1",
        },
      });
      const client = appClient(recorder.url);
      expect(client.config.requestHandler.constructor.name).toBe("NodeHttp2Handler");

      expect(await ask(client)).toEqual(read);
      const stopped = await recorder.stop("SIGINT");
      expect(stopped.exitCode).toBe(0);
      expect(stopped.stdout).toContain(`replay-agent stopped: recorded ${frames} to ${out}`);
      expect(upstream.refused).toEqual([]);
      expect(upstream.accepted).toEqual([
        expect.objectContaining({
          authorization: expect.stringMatching(
            new RegExp(`^AWS4-HMAC-SHA256 Credential=${recorderAws.accessKeyId}/\\d{8}/us-east-1/bedrock/aws4_request, SignedHeaders=`),
          ),
          "x-amz-security-token": recorderAws.sessionToken,
        }),
      ]);
      expect(bedrock.status()).toMatchObject({ remaining: 0, mismatches: [] });

      const text = await readFile(out, "utf8");
      for (const secret of [...Object.values(recorderAws), ...Object.values(appAws)]) expect(text).not.toContain(secret);
      expect(text).not.toMatch(/authorization|x-amz-security-token|x-amz-date|Signature=/i);
      const transcript = await loadTranscript(out);
      expect(transcript.meta).toMatchObject({
        provider: "bedrock",
        model: modelId,
        client: expect.stringMatching(/^aws-sdk-js\//),
        source: "recorded",
      });

      const replay = await startReplayServer({ transcript: out });
      onTestFinished(() => replay.close());
      expect(await ask(appClient(replay.url))).toEqual(read);
      expect(replay.status()).toMatchObject({ remaining: 0, mismatches: [] });
    },
  );

  it("checks for real: the upstream refuses a signature made with other credentials with AWS's 403, which the SDK raises as InvalidSignatureException", async () => {
    const bedrock = await startReplayServer({ transcript: fixture("bedrock/converse.ndjson") });
    onTestFinished(() => bedrock.close());
    const upstream = await signatureCheckingUpstream({ credentials: recorderAws, region: "us-east-1", forwardTo: bedrock.url });

    // Over HTTP/1.1, which the stand-in speaks: fixtures' bedrockClient, signing with its own credentials for the upstream's host.
    const refusal = await bedrockClient(upstream.url)
      .send(
        new ConverseCommand({
          modelId,
          messages: [{ role: "user", content: [{ text: "Name this thread" }] }],
          inferenceConfig: { maxTokens: 20 },
        }),
      )
      .catch((error: unknown) => error);
    expect(refusal).toMatchObject({
      name: "InvalidSignatureException",
      message: expect.stringMatching(/^The request signature we calculated does not match the signature you provided/),
      $metadata: { httpStatusCode: 403 },
    });
    expect(upstream.refused).toHaveLength(1);
    expect(bedrock.requests()).toEqual([]);
  });
});
