"""The poker games of 9 NYCRR 5324.42 at the table: the hand at the table, the seats and the button
between hands, the events the dealer's console sends (contract), the room's pooled jackpot, the par
sheet. The poker engine itself is a library, controller/poker, that this package uses."""
