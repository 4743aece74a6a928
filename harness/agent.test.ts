import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startAgents, unreachedAgents } from "./agent.ts";

/** A transcript of the replay agent's fixtures. */
const fixture = (name: string): string => join(import.meta.dirname, "..", "replay-agent", "fixtures", name);

describe("a test's replay agents", () => {
  it("gives each transcript named in test.use its own agent, reached with agent.of(name), and names the test's transcripts for any other name", async () => {
    const { agent, each, dispose } = await startAgents(
      { chat: "openai-chat/short-tour.ndjson", title: "anthropic-messages/short-tour.ndjson" },
      fixture,
    );
    try {
      expect(each.map(({ name, agent: one }) => [name, one.provider])).toEqual([
        ["chat", "openai-chat"],
        ["title", "anthropic-messages"],
      ]);
      expect([agent.names, agent.of("chat").url, agent.of("title").provider]).toEqual([["chat", "title"], agent.url, "anthropic-messages"]);
      expect(agent.of("title").url).not.toBe(agent.url);
      expect(() => agent.of("summary")).toThrow(
        '[scenario-harness:config] agent.of("summary") names no transcript of this test: its transcripts are "chat", "title" (test.use({ transcript })).',
      );
    } finally {
      await dispose();
    }
    const single = await startAgents("openai-chat/short-tour.ndjson", fixture);
    try {
      expect(single.agent.names).toEqual([]);
      expect(() => single.agent.of("chat")).toThrow("it was given one transcript, not several by name");
    } finally {
      await single.dispose();
    }
  });

  it("names, for a failed test, the replay agents that received no request though their transcripts expect some", async () => {
    const { agent, each, dispose } = await startAgents(
      { chat: "openai-chat/short-tour.ndjson", title: "anthropic-messages/short-tour.ndjson" },
      fixture,
    );
    try {
      // The app reached the chat's agent (a request it did not expect is a request too) and never the title's.
      await fetch(`${agent.of("chat").url}/v1/unknown`, { method: "POST", body: "{}" });
      const finished = each.map(({ name, agent: one }) => ({ name, status: one.status() }));
      expect(unreachedAgents(finished, false)).toMatch(
        /^The replay agent of the transcript "title" received no request before the test failed\. /,
      );
      expect(unreachedAgents(finished, true)).toBeUndefined();
      expect(unreachedAgents(finished.slice(0, 1), false)).toBeUndefined();
    } finally {
      await dispose();
    }
  });
});
