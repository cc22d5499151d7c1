// Email and recovery in the browser (docs/server.md, "Email and recovery"):
//   /forgot             ask for a reset link by user name or email address
//   /reset#TOKEN        choose a new password (the emailed link opens this page)
//   /verify-email#TOKEN confirm an address (the emailed link opens this page)
// and the account page's email section, which notices also come by email (that page
// and /notices). A link's token is read from the
// address's fragment, which no server ever sees in its logs, and the fragment is
// cleared from the address bar once read.

import { api } from "./api.js";
import { h, toast } from "./dom.js";
import { t } from "./i18n.js";
import { apiErrorText } from "./invites.js";
import { navigate } from "./nav.js";

function field(label, input) {
  return h("label", { class: "field" }, h("span", {}, label), input);
}

/** The token of an emailed link (the fragment), taken out of the address bar. */
function linkToken() {
  const token = location.hash.slice(1);
  if (token) history.replaceState(null, "", location.pathname);
  return token;
}

function banner(tone) {
  return h("p", { class: `banner ${tone}`, role: tone === "warn" ? "alert" : "status", hidden: true });
}

function say(box, text) {
  box.textContent = text;
  box.hidden = !text;
}

/** "Forgot your password?": a name or an address; the same answer whatever it is. */
export function showForgot(main) {
  document.title = `${t("forgotTitle")} · cardtable`;
  const who = h("input", { type: "text", id: "forgot-who", required: true, maxlength: 254, autocomplete: "username" });
  const done = banner("info");
  const error = banner("warn");
  const form = h(
    "form",
    { class: "panel accountform", "data-forgot": "" },
    h("h1", {}, t("forgotTitle")),
    h("p", { class: "hint" }, t("forgotHelp")),
    field(t("forgotWho"), who),
    error,
    done,
    h("button", { type: "submit", class: "primary" }, t("forgotSend")),
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    say(error, "");
    try {
      await api.recover(who.value.trim());
      say(done, t("forgotSent"));
    } catch (err) {
      say(error, await apiErrorText(err));
    }
  });
  main.replaceChildren(form);
  who.focus();
}

/** The emailed reset link's page: a new password for the link's account. */
export function showReset(main) {
  document.title = `${t("resetTitle")} · cardtable`;
  const token = linkToken();
  if (!token) {
    main.replaceChildren(missingLink(t("resetTitle")));
    return;
  }
  const fresh = h("input", { type: "password", id: "reset-password", required: true, minlength: 8, maxlength: 256, autocomplete: "new-password" });
  const error = banner("warn");
  const form = h(
    "form",
    { class: "panel accountform", "data-reset": "" },
    h("h1", {}, t("resetTitle")),
    h("p", { class: "hint" }, t("resetHelp")),
    field(t("newPassword"), fresh),
    h("p", { class: "hint" }, t("passwordHelp")),
    error,
    h("button", { type: "submit", class: "primary" }, t("resetSave")),
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    say(error, "");
    try {
      await api.resetPassword(token, fresh.value);
      toast(t("resetDone"), "info", 6000);
      navigate("/signin");
    } catch (err) {
      say(error, await apiErrorText(err));
      if (err.status === 400 || err.status === 410) {
        form.append(h("p", {}, h("a", { href: "/forgot", "data-nav": "" }, t("askAgain"))));
      }
    }
  });
  main.replaceChildren(form);
  fresh.focus();
}

/** The emailed verification link's page: confirms the address at once. */
export function showVerify(main) {
  document.title = `${t("verifyTitle")} · cardtable`;
  const token = linkToken();
  if (!token) {
    main.replaceChildren(missingLink(t("verifyTitle")));
    return;
  }
  const status = h("p", { role: "status" }, t("verifying"));
  main.replaceChildren(h("section", { class: "panel accountform", "data-verify": "" }, h("h1", {}, t("verifyTitle")), status));
  api
    .verifyEmail(token)
    .then((answer) => {
      status.textContent = t("verifyDone", { email: answer.email });
      status.dataset.verified = answer.email;
    })
    .catch(async (err) => {
      status.textContent = await apiErrorText(err);
      status.className = "banner warn";
    });
}

function missingLink(title) {
  return h("section", { class: "panel missing", "data-missing": "" }, h("h1", {}, title), h("p", {}, t("linkMissing")));
}

/** The account page's email section: the address, a new one (confirmed by a link), removal. */
export function emailSection() {
  const state = h("p", { "data-email-state": "" }, t("loading"));
  const email = h("input", { type: "email", id: "email-address", required: true, maxlength: 254, autocomplete: "email" });
  const password = h("input", { type: "password", id: "email-password", required: true, autocomplete: "current-password" });
  const remove = h("button", { type: "button", class: "link", "data-email-remove": "", hidden: true }, t("emailRemove"));
  const show = (answer) => {
    const lines = [answer.email ? t("emailIs", { email: answer.email }) : t("emailNone")];
    if (answer.pending) lines.push(t("emailPending", { email: answer.pending }));
    state.textContent = lines.join(" ");
    state.dataset.email = answer.email || "";
    remove.hidden = !answer.email && !answer.pending;
  };
  const form = h(
    "form",
    { class: "accountform", "data-email": "" },
    h("h2", {}, t("emailTitle")),
    h("p", { class: "hint" }, t("emailHelp")),
    state,
    field(t("emailField"), email),
    field(t("currentPassword"), password),
    h("p", { class: "actions" }, h("button", { type: "submit" }, t("emailSave")), remove),
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      show(await api.addEmail(email.value.trim(), password.value));
      password.value = "";
      toast(t("emailSent"), "info", 5000);
    } catch (err) {
      toast(await apiErrorText(err));
    }
  });
  remove.addEventListener("click", async () => {
    if (!password.value) {
      password.focus();
      password.reportValidity();
      return;
    }
    try {
      await api.removeEmail(password.value);
      password.value = "";
      show({ email: null, pending: null });
      toast(t("emailRemoved"), "info", 4000);
    } catch (err) {
      toast(await apiErrorText(err));
    }
  });
  api.email().then(show, () => show({ email: null, pending: null }));
  return form;
}

/** Which notices also come by email: a box for each kind the server can mail. */
export function mailChoices() {
  const kinds = ["your_turn", "tournament_round"];
  const hint = h("p", { class: "hint", "data-mail-address": "" });
  const boxes = kinds.map((kind) => h("input", { type: "checkbox", name: kind, disabled: true }));
  const show = (chosen) => {
    boxes.forEach((box, i) => {
      box.checked = Boolean(chosen[kinds[i]]);
      box.disabled = false;
    });
    hint.textContent = chosen.address ? t("mailAddressOk") : t("mailAddressNone");
    hint.dataset.mailAddress = chosen.address ? "yes" : "no";
  };
  boxes.forEach((box) =>
    box.addEventListener("change", async () => {
      try {
        show(await api.setMailChoices({ [box.name]: box.checked }));
        toast(t("mailSaved"), "info", 3000);
      } catch (err) {
        box.checked = !box.checked;
        toast(await apiErrorText(err));
      }
    }),
  );
  api.mailChoices().then(show, () => null);
  return h(
    "form",
    { class: "accountform", "data-mail-choices": "" },
    h("h2", {}, t("mailTitle")),
    ...kinds.map((kind, i) => h("label", { class: "check" }, boxes[i], t(`mail_${kind}`))),
    hint,
  );
}
