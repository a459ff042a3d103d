// Drives a live run with the published client, @foxglove/ws-protocol's FoxgloveClient, over
// subprotocol foxglove.websocket.v1 (its SUPPORTED_SUBPROTOCOL). Argument: one JSON object
// {url, publish: {topic, schemaName, data}, service: {name, request}, parameter:
// {name, value, bad}} (data/request: base64 CDR). It subscribes to the topic it publishes on,
// so the message comes back only if it went into the run; it also advertises a channel on a
// topic the run lacks. Prints one JSON object of what it got, exit 0.
import { createRequire } from "node:module";
const require = createRequire(process.env.FOXGLOVE_NPM + "/node_modules/");
const { FoxgloveClient } = require("@foxglove/ws-protocol");
const WebSocket = require("ws");

const args = JSON.parse(process.argv[2]);
const ws = new WebSocket(args.url, [FoxgloveClient.SUPPORTED_SUBPROTOCOL]);
const client = new FoxgloveClient({ ws });
const out = { subprotocol: null, capabilities: null, channels: [], services: [] };
const b64 = (u8) => Buffer.from(u8.buffer, u8.byteOffset, u8.byteLength).toString("base64");
const done = (code) => { console.log(JSON.stringify(out)); client.close(); process.exit(code); };
setTimeout(() => { out.error = "timeout"; done(1); }, 30000);

const steps = new Set(["message", "service", "getParameters", "setParameters"]);
const finish = (step) => { steps.delete(step); if (steps.size === 0) done(0); };
let subscribed = false, called = false;

client.on("open", () => { out.subprotocol = ws.protocol; });
client.on("serverInfo", (info) => {
  out.capabilities = info.capabilities;
  client.getParameters([args.parameter.name], "get");
  const id = client.advertise({ topic: args.publish.topic, encoding: "cdr",
    schemaName: args.publish.schemaName });
  const data = Buffer.from(args.publish.data, "base64");
  out.published = 0;  // until the run's channel of that topic brings a message back
  setInterval(() => { client.sendMessage(id, data); out.published += 1; }, 50);
  client.advertise({ topic: "/no/such/topic", encoding: "cdr",
    schemaName: args.publish.schemaName });
});
client.on("advertise", (channels) => {
  out.channels.push(...channels.map((c) => c.topic));
  const ch = channels.find((c) => c.topic === args.publish.topic);
  if (ch && !subscribed) { subscribed = true; client.subscribe(ch.id); }
});
client.on("message", ({ data }) => {
  if (!out.message) { out.message = b64(data); finish("message"); }
});
client.on("advertiseServices", (services) => {
  out.services.push(...services.map((s) => s.name));
  const svc = services.find((s) => s.name === args.service.name);
  if (svc && !called) {
    called = true;
    client.sendServiceCallRequest({ serviceId: svc.id, callId: 7, encoding: "cdr",
      data: new Uint8Array(Buffer.from(args.service.request, "base64")) });
  }
});
client.on("serviceCallResponse", (r) => { out.response = b64(r.data); finish("service"); });
client.on("serviceCallFailure", (r) => { out.serviceFailure = r.message; finish("service"); });
client.on("parameterValues", (msg) => {
  if (msg.id === "get") {
    out.got = msg.parameters;
    client.setParameters([{ name: args.parameter.name, value: args.parameter.value }], "set");
    finish("getParameters");
  } else if (msg.id === "set") {  // then a value of the wrong type, which the node refuses
    out.set = msg.parameters;
    client.setParameters([{ name: args.parameter.name, value: args.parameter.bad }], "bad");
  } else if (msg.id === "bad") {
    out.bad = msg.parameters;
    finish("setParameters");
  }
});
client.on("status", (s) => { (out.status ||= []).push(s.message); });
client.on("error", (e) => { out.error = String(e && e.message || e); done(1); });
