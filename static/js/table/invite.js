// The invite link of a private table, on its creator's page (tables/access.py): copy it in one click.
const copy = document.getElementById("invite-copy");
if (copy) {
  copy.addEventListener("click", async () => {
    const input = document.getElementById("invite-link");
    input.select();
    try {
      await navigator.clipboard.writeText(input.value);
    } catch {
      document.execCommand("copy");  // no clipboard permission (plain http): the selected text
    }
    copy.textContent = gettext("Copied");
  });
}
