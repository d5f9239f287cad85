// anonymed pages' shared helpers (service and review): DOM nodes and textContent only, never HTML.
"use strict";

window.anonymedPage = (function () {
  const $ = (id) => document.getElementById(id);
  function el(tag, props, children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(props || {})) {
      if (key === "text") node.textContent = value;
      else if (key === "className") node.className = value;
      else node.setAttribute(key, value);
    }
    for (const child of children || []) node.append(child);
    return node;
  }

  function headers() {
    const h = { "Content-Type": "application/json" };
    const key = $("apikey").value.trim();
    if (key) h["X-API-Key"] = key;
    return h;
  }

  function showMessage(text, kind) {
    const box = $("message");
    box.textContent = text;
    box.className = kind || "";
    box.hidden = !text;
  }

  async function errorText(response) {
    try {
      const body = await response.json();
      if (typeof body.detail === "string") return body.detail;
      if (Array.isArray(body.detail)) {
        return body.detail.map((e) => `${(e.loc || []).join(".")}: ${e.msg}`).join("; ");
      }
    } catch (_) { /* not JSON */ }
    return response.statusText || "request failed";
  }

  return Object.freeze({ $, el, headers, showMessage, errorText });
})();
