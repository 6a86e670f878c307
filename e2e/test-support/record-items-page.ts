// The small client a recording test clicks through, served by json-server itself (its static folder)
// at the service's own origin: it signs in with fetch (POST /login answers a JWT), lists the items
// with the token as a Bearer header, then adds one (POST /items answers it with its new id), opens it
// and deletes it, each by that id. Every step after the login needs the token; the last two need the
// id a response gave, so a replay that sends the recorded values back fails both ways.
// record-items-script.ts is the person who clicks.

export const ITEMS_USER = { email: 'ada@example.test', password: 's3cret-pass' };

export const ITEMS_PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>Items</title><link rel="icon" href="data:,"></head>
<body>
<form id="login"><input id="email" value="${ITEMS_USER.email}"><input id="password" type="password" value="${ITEMS_USER.password}"><button id="sign-in" type="submit">Sign in</button></form>
<ul id="items"></ul>
<button id="add" type="button" disabled>Add a pen</button>
<p id="detail"></p>
<script>
let auth = null;
document.getElementById('login').addEventListener('submit', async (e) => {
  e.preventDefault();
  const login = await fetch('/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: document.getElementById('email').value, password: document.getElementById('password').value }) });
  auth = { authorization: 'Bearer ' + (await login.json()).accessToken };
  const items = await (await fetch('/items', { headers: auth })).json();
  document.getElementById('items').innerHTML = items.map((i) => '<li>' + i.name + '</li>').join('');
  document.getElementById('add').disabled = false;
});
document.getElementById('add').addEventListener('click', async () => {
  const created = await (await fetch('/items', { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'pen' }) })).json();
  const item = await (await fetch('/items/' + created.id, { headers: auth })).json();
  const gone = await fetch('/items/' + created.id, { method: 'DELETE', headers: auth });
  document.getElementById('detail').textContent = 'item ' + item.id + ': ' + item.name + (gone.ok ? ', deleted' : ', not deleted');
});
</script></body></html>`;
