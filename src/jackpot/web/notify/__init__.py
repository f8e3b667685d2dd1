"""Telling players it is their throw: notices, preferences, the mailer, its routes.

A match may last a fortnight with a deadline on every throw, so a player who is
not told that the others have moved times out. The design:

* **Producing** happens inside the move's own transaction
  (``listeners.plan_news``, written with the move's own rows by play/): a
  row in ``notices`` when a person's turn begins in a match between people, and one
  for the reminder of every throw with a deadline of an hour or more (within a turn
  the workers move the turn's reminder on to the throw then due, when its time
  comes: ``notices.move_early_reminders``). A committed move therefore always has
  its notice, and a rolled back move never has one. The
  row's unique ``key`` (match, round, seat for a turn; match, throw, seat for a
  reminder) makes a second mail for the same turn or throw impossible, whatever else
  goes wrong.
* **The end of a match** is news too: the move that puts a seat out on time writes
  an "out" notice for that player, and, when the match ends, the finisher's end
  listener writes an "ended" one for each person (``listeners.end_news`` says who).
  They follow the turn mail
  setting and the hourly cap, and are pushed like turn news.
* **Sending** is a background step (``mailer.mail_step``, run by ``mail_steps``), never a
  request. It claims one player at a time with a conditional UPDATE on
  ``mail_prefs`` (a lease), so any number of sweepers may run and each player's mail
  is built and sent by exactly one of them. Everything due for that player goes out
  as one mail: a digest when several matches wait. Turn news goes out at most once
  an hour per player; a reminder is not held back by that cap (an hour late it could
  be too late), and turn news waiting for the cap rides along with it.
* Just before sending, each notice is checked against the match as it is now: a
  turn notice whose player has already started the turn, or a reminder whose throw
  has been made, is dropped. A short grace period before a turn mail lets a player
  who is watching the page move first and get no mail at all; it is a minute, or a
  fifth of the throw's time when that is shorter (``notices.grace``), so a mail for
  a short deadline still comes while there is time to act on it.
* A failed send is retried with exponential backoff, and given up after
  ``outbox.MAX_ATTEMPTS``. If a sweeper dies between handing a mail to the server and
  marking it sent, the lease runs out and the mail is sent again: at least once on
  a crash, exactly once otherwise; SMTP offers nothing better.
"""
