"""The hotseat terminal game: the loop (:mod:`.loop`), the screen (:mod:`.screen`), the parser of
typed commands (:mod:`.parse`) and the console with hidden input (:mod:`.console`); the save
file is :mod:`india1853.interfaces.logfile`, which every command reads."""
