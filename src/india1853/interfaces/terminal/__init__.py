"""The hotseat terminal game: the loop (:mod:`.loop`), the screen (:mod:`.screen`), the parser of
typed commands (:mod:`.parse`), the console with hidden input (:mod:`.console`) and the save
file (:mod:`.savefile`)."""
