/** The load-failure alert of a plain-script island: its message and a Retry button. */

/** A `role=alert` box of `className` saying `message`, with a Retry button (`label`) that calls `onRetry`. */
export function retryAlert(
  className: string,
  message: string,
  label: string,
  onRetry: () => void,
): HTMLDivElement {
  const alert = document.createElement("div");
  alert.className = className;
  alert.setAttribute("role", "alert");
  const retry = document.createElement("button");
  retry.type = "button";
  retry.className = "btn btn-sm btn-secondary";
  retry.textContent = label;
  retry.onclick = onRetry;
  alert.append(`${message} `, retry);
  return alert;
}
