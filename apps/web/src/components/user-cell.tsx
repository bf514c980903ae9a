/** A user in a table cell: the address, and the id under it (the order desk, the payoff desk). */
export function UserCell({ email, id }: { email: string; id: number }) {
  return (
    <div className="cell-user">
      <span>{email}</span>
      <span className="muted">#{id}</span>
    </div>
  );
}
