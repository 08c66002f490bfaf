form--button = Fill in the form
error--no_form = There is nothing for you to fill in right now.
error--form_not_yours = This form was opened for someone else. Open your own with the "Fill in the form" button.
error--form_bad_values = That form came back with answers it never offered. Nothing was changed; open it again.
