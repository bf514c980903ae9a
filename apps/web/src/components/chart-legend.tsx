/** The key under a hand-drawn chart (usage, sign-ins): a swatch and a label per series, in the order given. */
export function ChartLegend({ items }: { items: readonly { color: string; label: string }[] }) {
  return (
    <div className="usage-chart__legend">
      {items.map(({ color, label }) => (
        <span key={label} className="usage-chart__key">
          <span className="usage-chart__swatch" style={{ background: color }} />
          {label}
        </span>
      ))}
    </div>
  );
}
