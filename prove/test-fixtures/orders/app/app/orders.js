"use client";

import { useEffect, useRef, useState } from "react";

/** The order form and the orders placed, shown again each time the worker prices one. */
export function Orders() {
  const [placed, setPlaced] = useState([]);
  // The list the latest read found: an earlier read that answers later is older news.
  const reads = useRef(0);
  const show = async () => {
    const read = ++reads.current;
    const list = await (await fetch("/api/orders")).json();
    if (read === reads.current) setPlaced(list);
  };

  useEffect(() => {
    // The worker's news comes through the server; reading the list again on connecting catches what came before.
    const events = new EventSource("/api/events");
    events.addEventListener("open", show);
    events.addEventListener("message", show);
    return () => events.close();
  }, []);

  async function order(event) {
    event.preventDefault();
    await fetch("/api/orders", { method: "POST", body: new FormData(event.target) });
    await show();
  }

  return (
    <>
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
      <ul>
        {placed.map((order) => (
          <li key={order.id}>
            Order {order.id}: {order.quantity} × {order.item}, {order.status}
            {order.total === null ? "" : `, $${order.total}`}
          </li>
        ))}
      </ul>
    </>
  );
}
