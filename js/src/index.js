// Entry point of the ChatWidget front end (anywidget ESM module).
function render({ model, el }) {
  const list = document.createElement("div");
  list.className = "agui-chat";
  const draw = () => {
    list.replaceChildren();
    for (const message of model.get("messages") ?? []) {
      const item = document.createElement("div");
      item.dataset.role = message.role;
      item.dataset.messageId = message.id;
      item.textContent = (message.parts ?? [])
        .filter((part) => part.type === "text")
        .map((part) => part.text)
        .join("");
      list.append(item);
    }
  };
  model.on("change:messages", draw);
  draw();
  el.append(list);
  return () => model.off("change:messages", draw);
}

export default { render };
