"""The default mode: the composition of jusText and Boilerpipe and the steps it adds."""
