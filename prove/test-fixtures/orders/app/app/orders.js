"use client";

import { useRouter } from "next/navigation";
import { useEffect } from "react";

/** The order form; the page's list is rendered again on the server after each order and each order the worker prices. */
export function OrderForm() {
  const router = useRouter();

  useEffect(() => {
    // The worker's news comes through the server; rendering the list again on connecting catches what came before.
    const events = new EventSource("/api/events");
    events.addEventListener("open", () => router.refresh());
    events.addEventListener("message", () => router.refresh());
    return () => events.close();
  }, [router]);

  async function order(event) {
    event.preventDefault();
    await fetch("/api/orders", { method: "POST", body: new FormData(event.target) });
    router.refresh();
  }

  return (
    <form onSubmit={order}>
      <label>
        Item{" "}
        <select name="item">
          <option>Notebook</option>
          <option>Pen</option>
        </select>
      </label>
      <label>
        Quantity <input name="quantity" type="number" min="1" defaultValue="1" />
      </label>
      <button>Order</button>
    </form>
  );
}
