// The table inside Discord: sign in through Discord's own Embedded App SDK, then open the table.
// ready → authorize (a code for the "identify" scope) → the server exchanges the code and opens a
// session for the game this Activity was launched for → authenticate with the access token → the
// table page (its session cookie is set by the server's answer).
import { DiscordSDK } from "/static/vendor/discord-embedded-app-sdk.mjs";

const clientId = document.body.dataset.clientId;

function showError(words) {
  const box = document.getElementById("error");
  box.textContent = words;
  box.hidden = false;
}

async function openTable() {
  const sdk = new DiscordSDK(clientId);
  await sdk.ready();
  const { code } = await sdk.commands.authorize({
    client_id: clientId,
    response_type: "code",
    state: "",
    prompt: "none",
    scope: ["identify"],
  });
  const response = await fetch("/api/activity/token", {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ code, instance_id: sdk.instanceId }),
  });
  const answer = await response.json();
  if (!response.ok) {
    showError(answer.error);
    return;
  }
  await sdk.commands.authenticate({ access_token: answer.access_token });
  window.location.replace(`/game/${answer.game_id}`);
}

openTable().catch((error) => showError(String(error && error.message ? error.message : error)));
