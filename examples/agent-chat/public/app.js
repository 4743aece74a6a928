import { appendDelta, renderEmpty, renderProjects, renderThread, renderThreadList, threadTitle } from "./render.js";

const view = {
  threads: document.getElementById("threads"),
  project: document.getElementById("project"),
  newThread: document.getElementById("new-thread"),
  connection: document.getElementById("connection"),
  title: document.getElementById("thread-title"),
  threadProject: document.getElementById("thread-project"),
  alert: document.getElementById("alert"),
  messages: document.getElementById("messages"),
  composer: document.getElementById("composer"),
  input: document.getElementById("message"),
  send: document.getElementById("send"),
  stop: document.getElementById("stop"),
};

const state = { loaded: false, projects: [], threads: new Map() };
const openToolCalls = new Set();
let socket = null;

function connect() {
  const protocol = location.protocol === "https:" ? "wss:" : "ws:";
  socket = new WebSocket(`${protocol}//${location.host}/ws`);
  socket.addEventListener("open", () => setConnection("Connected", true));
  socket.addEventListener("message", (event) => receive(JSON.parse(event.data)));
  socket.addEventListener("close", () => {
    setConnection("Disconnected, reconnecting…", false);
    setTimeout(connect, 1000);
  });
}

function receive(message) {
  switch (message.type) {
    case "snapshot":
      state.loaded = true;
      state.projects = message.state.projects;
      state.threads = new Map(message.state.threads.map((thread) => [thread.id, thread]));
      renderProjects(view.project, state.projects, view.project.value);
      render();
      break;
    case "projects":
      state.projects = message.projects;
      renderProjects(view.project, state.projects, view.project.value);
      render();
      break;
    case "thread":
      state.threads.set(message.thread.id, message.thread);
      render();
      break;
    case "delta":
      applyDelta(message);
      break;
    case "thread.opened":
      location.hash = `#/thread/${message.threadId}`;
      break;
    case "error":
      showAlert(message.message);
      break;
  }
}

function applyDelta({ threadId, messageId, text }) {
  const thread = state.threads.get(threadId);
  const message = thread?.messages.find((m) => m.id === messageId);
  if (!message) return;
  message.text += text;
  if (threadId !== openThread()?.id) return;
  const stick = isScrolledToBottom();
  if (!appendDelta(view.messages, messageId, text)) render();
  if (stick) scrollToBottom();
}

function sortedThreads() {
  return [...state.threads.values()].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}

/** The thread in the URL, or the most recent thread when the URL names none. */
function openThread() {
  const match = /^#\/thread\/(.+)$/.exec(location.hash);
  return (match && state.threads.get(decodeURIComponent(match[1]))) || sortedThreads()[0] || null;
}

function runningTurn(thread) {
  return thread?.turns.find((turn) => turn.status === "running") ?? null;
}

function render() {
  if (!state.loaded) return;
  const thread = openThread();
  if (thread && location.hash !== `#/thread/${thread.id}`) history.replaceState(null, "", `#/thread/${thread.id}`);
  renderThreadList(view.threads, sortedThreads(), thread?.id);
  view.title.textContent = thread ? threadTitle(thread) : "agent-chat";
  document.title = thread ? `${threadTitle(thread)} · agent-chat` : "agent-chat";
  view.threadProject.textContent = thread ? (thread.projectName ?? "no project") : "";
  const stick = isScrolledToBottom();
  if (thread) renderThread(view.messages, thread, openToolCalls);
  else renderEmpty(view.messages, state.projects);
  if (stick) scrollToBottom();
  const running = runningTurn(thread);
  view.stop.hidden = running === null;
  view.send.hidden = running !== null;
}

function sendMessage() {
  const text = view.input.value;
  const thread = openThread();
  if (text.trim() === "" || runningTurn(thread)) return;
  if (!request({ type: "message.send", threadId: thread?.id, text })) return;
  view.input.value = "";
  hideAlert();
}

function request(message) {
  if (socket?.readyState !== WebSocket.OPEN) {
    showAlert("Not connected to the server.");
    return false;
  }
  socket.send(JSON.stringify(message));
  return true;
}

function isScrolledToBottom() {
  const { scrollHeight, scrollTop, clientHeight } = view.messages;
  return scrollHeight - scrollTop - clientHeight < 40;
}

function scrollToBottom() {
  view.messages.scrollTop = view.messages.scrollHeight;
}

function setConnection(text, connected) {
  view.connection.textContent = text;
  view.connection.classList.toggle("offline", !connected);
}

function showAlert(text) {
  view.alert.textContent = text;
  view.alert.hidden = false;
}

function hideAlert() {
  view.alert.hidden = true;
}

view.composer.addEventListener("submit", (event) => {
  event.preventDefault();
  sendMessage();
});
view.input.addEventListener("keydown", (event) => {
  if (event.key !== "Enter" || event.shiftKey || event.isComposing) return;
  event.preventDefault();
  sendMessage();
});
view.stop.addEventListener("click", () => {
  const running = runningTurn(openThread());
  if (running) request({ type: "turn.stop", turnId: running.id });
});
view.newThread.addEventListener("click", () => {
  request({ type: "thread.create", projectName: view.project.value || undefined });
  view.input.focus();
});
window.addEventListener("hashchange", () => {
  hideAlert();
  render();
  scrollToBottom();
  view.input.focus();
});

connect();
