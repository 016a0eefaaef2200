// The organiser's console: a form marked data-confirm asks before it is sent (the pages work without this).
"use strict";

document.addEventListener("submit", (event) => {
  const form = event.target.closest("form[data-confirm]");
  if (form && !window.confirm(form.dataset.confirm)) event.preventDefault();
});
